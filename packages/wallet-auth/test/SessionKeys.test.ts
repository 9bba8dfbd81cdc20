import { Signer } from "@payrail/signer"
import { CredentialBundle, P256, Result } from "@payrail/wallet-protocol"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { Ids } from "@payrail/core"
import { SessionKeys } from "../src/index.js"

const deterministic = () => SessionKeys.layer.pipe(Layer.provide(Ids.layerDeterministic))

describe("SessionKeys", () => {
  it.effect("seals a session key that the device opens with its client key, given in either form", () =>
    Effect.gen(function* () {
      const sessionKeys = yield* SessionKeys.SessionKeys
      const client = Signer.generateKeyPair()
      for (const clientPublicKey of [client.publicKeyUncompressed, client.publicKeyCompressed]) {
        const issued = yield* sessionKeys.issue({ clientPublicKey })
        const opened = yield* Effect.promise(() =>
          Signer.openSessionKeyBundle({
            encryptedSessionSigningKey: issued.encryptedSessionSigningKey,
            privateKey: client.privateKey
          })
        )
        expect(opened.publicKeyCompressed).toBe(issued.publicKeyCompressed)
        expect(opened.publicKeyUncompressed).toBe(issued.publicKeyUncompressed)
      }
    }).pipe(Effect.provide(deterministic()))
  )

  it.effect("seals exactly the raw 32-byte scalar", () =>
    Effect.gen(function* () {
      const sessionKeys = yield* SessionKeys.SessionKeys
      const client = P256.generateKeyPair()
      const key = yield* sessionKeys.generate
      const bundle = yield* sessionKeys.seal({
        sessionPrivateKey: key.privateKey,
        clientPublicKey: client.publicKey.uncompressedHex
      })
      const plaintext = yield* Effect.promise(() => CredentialBundle.open({ bundle, recipient: client.privateKey }))
      expect(Buffer.from(Result.getOrThrow(plaintext)).toString("hex")).toBe(Redacted.value(key.privateKey))
    }).pipe(Effect.provide(deterministic()))
  )

  it.effect("draws keys from the Ids service, so a deterministic source reproduces them", () =>
    Effect.gen(function* () {
      const twoKeys = Effect.flatMap(SessionKeys.SessionKeys, (s) => Effect.all([s.generate, s.generate])).pipe(
        Effect.provide(deterministic())
      )
      const [one, next] = yield* twoKeys
      const [same] = yield* twoKeys
      expect(same.publicKeyCompressed).toBe(one.publicKeyCompressed)
      expect(next.publicKeyCompressed).not.toBe(one.publicKeyCompressed)
    })
  )

  it.effect("fails with ClientPublicKeyInvalid for a client key that is not a P-256 point", () =>
    Effect.gen(function* () {
      const sessionKeys = yield* SessionKeys.SessionKeys
      for (const clientPublicKey of ["04abcd", `02${"00".repeat(31)}01`, "zz"]) {
        const error = yield* Effect.flip(sessionKeys.issue({ clientPublicKey }))
        expect([error._tag, error.check]).toEqual(["ClientPublicKeyInvalid", "clientPublicKey"])
      }
    }).pipe(Effect.provide(deterministic()))
  )

  it.effect("uses the platform CSPRNG in the production layer", () =>
    Effect.gen(function* () {
      const sessionKeys = yield* SessionKeys.SessionKeys
      const [a, b] = yield* Effect.zip(sessionKeys.generate, sessionKeys.generate)
      expect(a.publicKeyCompressed).not.toBe(b.publicKeyCompressed)
    }).pipe(Effect.provide(SessionKeys.layer.pipe(Layer.provide(Ids.layer))))
  )
})
