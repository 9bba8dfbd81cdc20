import { Context, type Effect, type Redacted } from "effect"
import type { WalletAuthFailed } from "./WalletErrors.js"

/** A one-time code and the encryption target a device seals it to. */
export interface IssuedOtp {
  /** The code to deliver (never stored, never logged). */
  readonly code: Redacted.Redacted<string>
  /** A one-way digest of the code: what is stored and compared. */
  readonly codeDigest: string
  /** The signed target bundle (`spec/wallet-crypto.md` section 5) returned as `otpEncryptionTargetBundle`. */
  readonly otpEncryptionTargetBundle: string
  /** The target's private key sealed under the master key: safe to store with the challenge. */
  readonly sealedTargetKey: string
}

/** What an `encryptedOtpBundle` held: the digest of its code and the device's TEK (lowercase compressed hex). */
export interface OpenedOtp {
  readonly codeDigest: string
  readonly publicKey: string
}

/**
 * One-time codes for `EMAIL_OTP` and `SMS_OTP` credentials: issues a code with a fresh HPKE target, and opens the
 * `encryptedOtpBundle` a device sealed to it (`spec/wallet-crypto.md` section 3). Implemented by
 * `@payrail/wallet-auth`.
 */
export class OtpChallenges extends Context.Tag("@payrail/core/OtpChallenges")<
  OtpChallenges,
  {
    /** A code of `length` characters (digits, or upper-case letters and digits), or exactly `fixedCode` if given. */
    readonly issue: (options: {
      readonly length: number
      readonly alphanumeric: boolean
      readonly fixedCode?: string
    }) => Effect.Effect<IssuedOtp>
    /** Opens the bundle; a bundle that is not for this target or not well formed fails with check `otp_bundle`. */
    readonly open: (input: {
      readonly encryptedOtpBundle: string
      readonly sealedTargetKey: string
    }) => Effect.Effect<OpenedOtp, WalletAuthFailed>
  }
>() {}
