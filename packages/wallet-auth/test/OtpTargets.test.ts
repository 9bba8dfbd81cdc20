import { Signer } from "@payrail/signer"
import { Hpke, P256, Result, TargetBundle } from "@payrail/wallet-protocol"
import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigError, ConfigProvider, Effect, Exit, Layer, Redacted } from "effect"
import { Ids } from "@payrail/core"
import { OtpTargets } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const SIGNER_KEY = "67fc72c4d7a48947ad73eb01312057d0cebaeaa1d0630d104414b180cd616b4a"
const SIGNER_PUBLIC =
  "04dcac0989ff9d39e81e20f353f8c20d58dcd2563c5790bec62866f982221f9d1b939634b5e4ddc52933635834663555a483e7911ec7c524ed2e319ad2f20ab36f"

const live = OtpTargets.layer({ signerPrivateKey: Redacted.make(SIGNER_KEY) }).pipe(
  Layer.provide(Ids.layerDeterministic)
)

const checkOf = <A>(effect: Effect.Effect<A, OtpTargets.OtpBundleInvalid>) =>
  Effect.map(Effect.flip(effect), (error) => error.check)

describe("OtpTargets", () => {
  it.effect("issues a target bundle signed by the server signer key, exposing the key clients pin", () =>
    Effect.gen(function* () {
      const targets = yield* OtpTargets.OtpTargets
      expect(targets.signerPublicKey).toBe(SIGNER_PUBLIC)
      const issued = yield* targets.issue
      const signerPublicKey = Result.getOrThrow(P256.parsePublicKey(targets.signerPublicKey))
      const decoded = Result.getOrThrow(
        TargetBundle.verify({ bundle: issued.otpEncryptionTargetBundle, signerPublicKey })
      )
      expect(Result.getOrThrow(TargetBundle.targetPublicKey(decoded)).uncompressedHex).toBe(issued.targetPublicKey)
      const derived = P256.publicKeyOf(Result.getOrThrow(P256.parsePrivateKey(Redacted.value(issued.targetPrivateKey))))
      expect(derived.uncompressedHex).toBe(issued.targetPublicKey)
      expect(String(issued.targetPrivateKey)).not.toContain(Redacted.value(issued.targetPrivateKey))
    }).pipe(Effect.provide(live))
  )

  it.effect("issues a fresh key pair per target, reproducibly from the random source", () =>
    Effect.gen(function* () {
      const first = yield* Effect.flatMap(OtpTargets.OtpTargets, (t) => Effect.zip(t.issue, t.issue)).pipe(
        Effect.provide(live)
      )
      const again = yield* Effect.flatMap(OtpTargets.OtpTargets, (t) => Effect.zip(t.issue, t.issue)).pipe(
        Effect.provide(live)
      )
      expect(first[0].targetPublicKey).not.toBe(first[1].targetPublicKey)
      expect(again.map((t) => t.otpEncryptionTargetBundle)).toEqual(first.map((t) => t.otpEncryptionTargetBundle))
    })
  )

  it.effect("opens what @payrail/signer encrypts, with the TEK sent compressed or uncompressed", () =>
    Effect.gen(function* () {
      const targets = yield* OtpTargets.OtpTargets
      const issued = yield* targets.issue
      const tek = Signer.generateKeyPair()
      for (const publicKey of [tek.publicKeyCompressed, tek.publicKeyUncompressed]) {
        const encryptedOtpBundle = yield* Effect.promise(() =>
          Signer.encryptOtpBundle({
            otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle,
            otpCode: "000000",
            publicKey,
            signerPublicKey: targets.signerPublicKey
          })
        )
        const opened = yield* targets.verify({
          encryptedOtpBundle,
          targetPrivateKey: issued.targetPrivateKey,
          expectedOtpCode: "000000"
        })
        expect(opened).toEqual({
          otpCode: "000000",
          publicKey,
          publicKeyCompressed: tek.publicKeyCompressed,
          publicKeyUncompressed: tek.publicKeyUncompressed
        })
      }
    }).pipe(Effect.provide(live))
  )

  it.effect("opens both vector bundles into {otp_code, public_key}", () =>
    Effect.gen(function* () {
      const targets = yield* OtpTargets.OtpTargets
      for (const vector of vectors.otpBundles) {
        const opened = yield* targets.open({
          encryptedOtpBundle: vector.encryptedOtpBundle,
          targetPrivateKey: Redacted.make(vector.targetPrivateKeyHex)
        })
        expect([opened.otpCode, opened.publicKey]).toEqual([vector.otpCode, vector.tekPublicKeyHex])
      }
    }).pipe(Effect.provide(live))
  )

  it.effect("names the failed check: otp, decryption, format, plaintext", () =>
    Effect.gen(function* () {
      const targets = yield* OtpTargets.OtpTargets
      const vector = vectors.otpBundles[0]!
      const targetPrivateKey = Redacted.make(vector.targetPrivateKeyHex)
      const otherTarget = Redacted.make(vectors.otpBundles[1]!.targetPrivateKeyHex)
      expect(
        yield* checkOf(
          targets.verify({ encryptedOtpBundle: vector.encryptedOtpBundle, targetPrivateKey, expectedOtpCode: "000001" })
        )
      ).toBe("otp")
      expect(
        yield* checkOf(
          targets.verify({
            encryptedOtpBundle: vector.encryptedOtpBundle,
            targetPrivateKey,
            expectedOtpCode: "0000000"
          })
        )
      ).toBe("otp")
      expect(
        yield* checkOf(targets.open({ encryptedOtpBundle: vector.encryptedOtpBundle, targetPrivateKey: otherTarget }))
      ).toBe("decryption")
      expect(yield* checkOf(targets.open({ encryptedOtpBundle: "{}", targetPrivateKey }))).toBe("format")
      const issued = yield* targets.issue
      const issuedTarget = Result.getOrThrow(P256.parsePublicKey(issued.targetPublicKey))
      const notOtp = yield* Effect.promise(() =>
        Hpke.seal({ plaintext: new TextEncoder().encode('{"otp_code":"1"}'), recipientPublicKey: issuedTarget })
      )
      const sealed = Result.getOrThrow(notOtp)
      const bundle = JSON.stringify({
        encappedPublic: Buffer.from(sealed.enc).toString("hex"),
        ciphertext: Buffer.from(sealed.ciphertext).toString("hex")
      })
      expect(
        yield* checkOf(targets.open({ encryptedOtpBundle: bundle, targetPrivateKey: issued.targetPrivateKey }))
      ).toBe("plaintext")
    }).pipe(Effect.provide(live))
  )

  it.effect("treats a stored target key that is not a P-256 key as a defect", () =>
    Effect.gen(function* () {
      const targets = yield* OtpTargets.OtpTargets
      const exit = yield* Effect.exit(
        targets.open({
          encryptedOtpBundle: vectors.otpBundles[0]!.encryptedOtpBundle,
          targetPrivateKey: Redacted.make("00")
        })
      )
      expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Die")
    }).pipe(Effect.provide(live))
  )

  it.effect("reads the signer key from configuration and rejects a malformed one as a ConfigError", () =>
    Effect.gen(function* () {
      const fromConfig = (value: string) =>
        OtpTargets.layerConfig(Config.redacted("OTP_SIGNER_KEY")).pipe(
          Layer.provide(Ids.layer),
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["OTP_SIGNER_KEY", value]]))))
        )
      const signer = yield* Effect.map(OtpTargets.OtpTargets, (t) => t.signerPublicKey).pipe(
        Effect.provide(fromConfig(SIGNER_KEY))
      )
      expect(signer).toBe(SIGNER_PUBLIC)
      const bad = yield* Effect.exit(Effect.provide(OtpTargets.OtpTargets, fromConfig("1234")))
      expect(Exit.isFailure(bad) && bad.cause._tag === "Fail" && ConfigError.isInvalidData(bad.cause.error)).toBe(true)
    })
  )
})
