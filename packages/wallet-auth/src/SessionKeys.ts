import { CredentialBundle, Encoding, P256, Result } from "@payrail/wallet-protocol"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { Ids } from "@payrail/core"

/**
 * The `clientPublicKey` to seal a session key to is not a P-256 public key (hex, compressed or uncompressed).
 * Maps to 400 `INVALID_INPUT`.
 */
export class ClientPublicKeyInvalid extends Schema.TaggedError<ClientPublicKeyInvalid>()("ClientPublicKeyInvalid", {
  check: Schema.Literal("clientPublicKey"),
  reason: Schema.String
}) {}

/** A session signing key pair generated on the server. */
export interface SessionKey {
  readonly privateKey: Redacted.Redacted<string>
  readonly publicKeyCompressed: string
  readonly publicKeyUncompressed: string
}

/** A session key sealed to a client: its public key (to register) and the bundle (to return). */
export interface SealedSessionKey {
  readonly publicKeyCompressed: string
  readonly publicKeyUncompressed: string
  /** The base58check credential bundle, `encryptedSessionSigningKey` of an `AuthSession`. */
  readonly encryptedSessionSigningKey: string
}

/**
 * Makes session signing keys for the passkey and OAuth flows and seals them to the device's `clientPublicKey` as
 * credential bundles that Turnkey's `decryptCredentialBundle` and `@payrail/signer` open. Stateless; safe to call
 * concurrently.
 */
export interface SessionKeysService {
  /** A fresh P-256 key pair from the `Ids` service of `@payrail/core`. */
  readonly generate: Effect.Effect<SessionKey>
  /** Seals the raw 32-byte private scalar to the client key (either form; HPKE uses the uncompressed form). */
  readonly seal: (input: {
    readonly sessionPrivateKey: Redacted.Redacted<string>
    readonly clientPublicKey: string
  }) => Effect.Effect<string, ClientPublicKeyInvalid>
  /** {@link generate} then {@link seal}; the private key exists only inside the returned bundle. */
  readonly issue: (input: {
    readonly clientPublicKey: string
  }) => Effect.Effect<SealedSessionKey, ClientPublicKeyInvalid>
}

/** Tag of the {@link SessionKeysService}. */
export class SessionKeys extends Context.Tag("@payrail/wallet-auth/SessionKeys")<SessionKeys, SessionKeysService>() {}

const make = Effect.gen(function* () {
  const random = yield* Ids.Ids

  const generate = Effect.map(random.randomBytes(P256.SEED_LENGTH), (seed): SessionKey => {
    const privateKey = P256.privateKeyFromSeed(seed)
    const publicKey = P256.publicKeyOf(privateKey)
    return {
      privateKey: Redacted.make(Encoding.toHex(privateKey)),
      publicKeyCompressed: publicKey.compressedHex,
      publicKeyUncompressed: publicKey.uncompressedHex
    }
  })

  const seal: SessionKeysService["seal"] = (input) =>
    Effect.gen(function* () {
      const recipientPublicKey = P256.parsePublicKey(input.clientPublicKey, "clientPublicKey")
      if (!recipientPublicKey.ok) {
        return yield* new ClientPublicKeyInvalid({ check: "clientPublicKey", reason: recipientPublicKey.error.message })
      }
      const plaintext = P256.parsePrivateKey(Redacted.value(input.sessionPrivateKey), "sessionPrivateKey")
      if (!plaintext.ok) return yield* Effect.dieMessage("a session private key is not a P-256 private key")
      const bundle = yield* Effect.promise(() =>
        CredentialBundle.seal({ plaintext: plaintext.value, recipientPublicKey: recipientPublicKey.value })
      )
      return Result.getOrThrow(bundle)
    })

  const issue: SessionKeysService["issue"] = (input) =>
    Effect.flatMap(generate, (key) =>
      Effect.map(seal({ sessionPrivateKey: key.privateKey, clientPublicKey: input.clientPublicKey }), (bundle) => ({
        publicKeyCompressed: key.publicKeyCompressed,
        publicKeyUncompressed: key.publicKeyUncompressed,
        encryptedSessionSigningKey: bundle
      }))
    )

  return SessionKeys.of({ generate, seal, issue })
})

/** The service; keys come from the `Ids` service of `@payrail/core`, HPKE ephemeral keys from WebCrypto. */
export const layer: Layer.Layer<SessionKeys, never, Ids.Ids> = Layer.effect(SessionKeys, make)
