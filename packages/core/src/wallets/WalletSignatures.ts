import { Context, type Effect } from "effect"
import type { WalletSignatureInvalid, WalletSignatureMalformed } from "./WalletErrors.js"

/** What to verify: the header value, the exact payload that was stamped, and the keys allowed to sign it. */
export interface VerifyInput {
  readonly stamp: string
  /** The `payloadToSign` string exactly as issued; its UTF-8 bytes are what the stamp signs. */
  readonly payloadToSign: string
  /** SEC1 hex P-256 public keys (either form); the stamp's key must equal one of them as a curve point. */
  readonly allowedPublicKeys: ReadonlyArray<string>
}

/**
 * Verifies wallet signature stamps (`Service-Wallet-Signature`, the format of `spec/wallet-crypto.md` section 1):
 * base64url JSON with scheme `SIGNATURE_SCHEME_TK_API_P256`, a DER ECDSA P-256 signature over SHA-256 of the exact
 * payload bytes, high-S accepted. Succeeds with the allowed key (as given) that made the stamp. Stateless and safe
 * under concurrency. Implemented by `@payrail/wallet-auth`.
 */
export class WalletSignatures extends Context.Tag("@payrail/core/WalletSignatures")<
  WalletSignatures,
  {
    readonly verify: (
      input: VerifyInput
    ) => Effect.Effect<{ readonly publicKey: string }, WalletSignatureMalformed | WalletSignatureInvalid>
  }
>() {}
