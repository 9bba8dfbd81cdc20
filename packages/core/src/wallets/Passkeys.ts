import { Context, type Effect } from "effect"
import type { AuthMethod } from "../accounts/index.js"
import type { WalletAuthFailed } from "./WalletErrors.js"

/** Where a platform's passkeys live: the WebAuthn relying party id and the page origins allowed to use them. */
export interface RelyingParty {
  readonly rpId: string
  readonly origins: ReadonlyArray<string>
}

/** A registration as the spec's body carries it (base64url fields, the WebAuthn names respelled). */
export interface Attestation {
  readonly credentialId: string
  readonly clientDataJson: string
  readonly attestationObject: string
  readonly transports: ReadonlyArray<string>
}

/** An assertion as the spec's body carries it. */
export interface Assertion {
  readonly credentialId: string
  readonly clientDataJson: string
  readonly authenticatorData: string
  readonly signature: string
  readonly userHandle?: string | null | undefined
}

/**
 * Verifies WebAuthn ceremonies for `PASSKEY` credentials: the challenge (its UTF-8 bytes, exactly as issued), the
 * origin among the platform's, the RP ID hash, user presence, the signature and the counter. Each failure is
 * `WalletAuthFailed` naming the check. Implemented by `@payrail/wallet-auth` (`@simplewebauthn/server`).
 */
export class Passkeys extends Context.Tag("@payrail/core/Passkeys")<
  Passkeys,
  {
    /** A registration answering `challenge`; succeeds with the credential id (base64url) and its key. */
    readonly verifyRegistration: (input: {
      readonly challenge: string
      readonly attestation: Attestation
      readonly relyingParty: RelyingParty
    }) => Effect.Effect<{ readonly credentialId: string; readonly key: AuthMethod.PasskeyKey }, WalletAuthFailed>
    /** An assertion answering `challenge` by the registered credential; succeeds with the new counter. */
    readonly verifyAssertion: (input: {
      readonly challenge: string
      readonly assertion: Assertion
      readonly credentialId: string
      readonly key: AuthMethod.PasskeyKey
      readonly relyingParty: RelyingParty
    }) => Effect.Effect<{ readonly counter: number }, WalletAuthFailed>
  }
>() {}
