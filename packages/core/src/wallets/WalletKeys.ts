import { Context, type Effect } from "effect"
import type { InvalidInput } from "../kernel/index.js"

/** A P-256 public key read from the wire, in the lowercase compressed form Payrail stores and compares. */
export interface ParsedPublicKey {
  readonly compressed: string
  /** Whether the client sent it uncompressed (`04…`): the legacy flow in which the service seals a session key. */
  readonly wasUncompressed: boolean
}

/** A session key the service generated and sealed to the client's key; the private half is never stored. */
export interface SealedSessionKey {
  /** The session's public key, lowercase compressed SEC1 hex. */
  readonly publicKey: string
  /** The private key sealed to the client (`spec/wallet-crypto.md` section 4, base58check). */
  readonly encryptedSessionSigningKey: string
}

/**
 * Key handling the wallet flows need from a crypto library: reading P-256 public keys, sealing fresh session keys
 * to a client, and the custody of each wallet's own secret (kept only sealed under the service's master key, never
 * stored or logged in clear). Implemented by `@payrail/wallet-auth`.
 */
export class WalletKeys extends Context.Tag("@payrail/core/WalletKeys")<
  WalletKeys,
  {
    /** Reads a P-256 public key given as SEC1 hex (`02`/`03` + 64 or `04` + 128 hex digits); `field` names it. */
    readonly parsePublicKey: (hex: string, field: string) => Effect.Effect<ParsedPublicKey, InvalidInput.InvalidInput>
    /** Generates a session key pair and seals its private key to `clientPublicKey` (uncompressed SEC1 hex). */
    readonly sealSessionKey: (clientPublicKey: string) => Effect.Effect<SealedSessionKey>
    /** Generates a wallet's secret and returns it sealed under the master key (opaque text, safe to store). */
    readonly createWalletSecret: Effect.Effect<string>
    /**
     * Opens a sealed wallet secret and seals it to the requester's `recipientPublicKey` (uncompressed SEC1 hex) as
     * an export bundle (`encryptedWalletCredentials`); the secret in clear exists only inside this call.
     */
    readonly exportWalletSecret: (input: {
      readonly sealedSecret: string
      readonly recipientPublicKey: string
      readonly organizationId: string
    }) => Effect.Effect<string>
  }
>() {}
