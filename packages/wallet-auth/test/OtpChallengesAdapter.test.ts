import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { Ids, OtpChallenges } from "@payrail/core"
import { Signer } from "@payrail/signer"
import { P256, Result } from "@payrail/wallet-protocol"
import { KeyCustody, OtpChallengesAdapter, OtpCodes, OtpTargets } from "../src/index.js"
import { vectors } from "./helpers/vectors.js"

const vector = vectors.otpBundles[0]!
const live = OtpChallengesAdapter.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      OtpTargets.layer({ signerPrivateKey: Redacted.make(vector.signerPrivateKeyHex) }),
      KeyCustody.layer({ masterKey: Redacted.make("07".repeat(32)) })
    )
  ),
  Layer.provideMerge(Ids.layer)
)
const challenges = OtpChallenges.OtpChallenges
const compressed = (hex: string) => Result.getOrThrow(P256.parsePublicKey(hex)).compressedHex

/** The device's side: encrypts `otpCode` and its TEK to the issued target, pinning the service signer. */
const answer = (issued: OtpChallenges.IssuedOtp, otpCode: string, tek: string) =>
  Effect.promise(() =>
    Signer.encryptOtpBundle({
      otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle,
      otpCode,
      publicKey: tek,
      signerPublicKey: vector.signerPublicKeyHex
    })
  )

describe("OtpChallengesAdapter.issue", () => {
  it.effect("issues a code of the asked length and alphabet with its digest, a signed target and a sealed key", () =>
    Effect.gen(function* () {
      const { issue } = yield* challenges
      const digits = yield* issue({ length: 6, alphanumeric: false })
      expect(Redacted.value(digits.code)).toMatch(/^[0-9]{6}$/)
      expect(digits.codeDigest).toBe(OtpCodes.digest(Redacted.value(digits.code)))
      expect(String(digits.code)).not.toContain(Redacted.value(digits.code))
      expect(digits.sealedTargetKey).toMatch(/^v1\./)
      expect(JSON.parse(digits.otpEncryptionTargetBundle)).toMatchObject({
        version: "v1.0.0",
        enclaveQuorumPublic: vector.signerPublicKeyHex
      })
      const mixed = yield* issue({ length: 8, alphanumeric: true })
      expect(Redacted.value(mixed.code)).toMatch(/^[A-Z0-9]{8}$/)
      const fixed = yield* issue({ length: 6, alphanumeric: false, fixedCode: "000000" })
      expect(Redacted.value(fixed.code)).toBe("000000")
      expect(fixed.codeDigest).toBe(OtpCodes.digest("000000"))
      expect(fixed.sealedTargetKey).not.toBe(digits.sealedTargetKey)
    }).pipe(Effect.provide(live))
  )
})

describe("OtpChallengesAdapter.open", () => {
  it.effect("opens the device's bundle: the code's digest and the TEK as lowercase compressed hex", () =>
    Effect.gen(function* () {
      const { issue, open } = yield* challenges
      const issued = yield* issue({ length: 6, alphanumeric: false })
      const tek = Signer.generateKeyPair()
      for (const publicKey of [tek.publicKeyUncompressed, tek.publicKeyCompressed.toUpperCase()]) {
        const encryptedOtpBundle = yield* answer(issued, Redacted.value(issued.code), publicKey)
        const opened = yield* open({ encryptedOtpBundle, sealedTargetKey: issued.sealedTargetKey })
        expect(opened).toEqual({ codeDigest: issued.codeDigest, publicKey: tek.publicKeyCompressed })
        // The Grid CLI prints the bundle once more as a JSON string literal.
        const doubled = yield* open({
          encryptedOtpBundle: JSON.stringify(encryptedOtpBundle),
          sealedTargetKey: issued.sealedTargetKey
        })
        expect(doubled).toEqual(opened)
      }
    }).pipe(Effect.provide(live))
  )

  it.effect("compares alphanumeric codes case-insensitively and tells a wrong code by its digest", () =>
    Effect.gen(function* () {
      const { issue, open } = yield* challenges
      const issued = yield* issue({ length: 8, alphanumeric: true, fixedCode: "AB12CD34" })
      const tek = Signer.generateKeyPair().publicKeyCompressed
      const typed = yield* open({
        encryptedOtpBundle: yield* answer(issued, "ab12cd34", tek),
        sealedTargetKey: issued.sealedTargetKey
      })
      expect(typed.codeDigest).toBe(issued.codeDigest)
      const wrong = yield* open({
        encryptedOtpBundle: yield* answer(issued, "AB12CD35", tek),
        sealedTargetKey: issued.sealedTargetKey
      })
      expect(wrong.codeDigest).not.toBe(issued.codeDigest)
    }).pipe(Effect.provide(live))
  )

  it.effect("opens the spec's vectors (Grid's uncompressed TEK and Turnkey's compressed one)", () =>
    Effect.gen(function* () {
      const { open } = yield* challenges
      const custody = yield* KeyCustody.KeyCustody
      for (const otp of vectors.otpBundles) {
        const sealedTargetKey = yield* custody.seal("otp-target-key", Buffer.from(otp.targetPrivateKeyHex, "hex"))
        const opened = yield* open({ encryptedOtpBundle: otp.encryptedOtpBundle, sealedTargetKey })
        expect(opened).toEqual({ codeDigest: OtpCodes.digest(otp.otpCode), publicKey: compressed(otp.tekPublicKeyHex) })
      }
    }).pipe(Effect.provide(live))
  )

  it.effect("fails otp_bundle for a bundle of another challenge, an altered one and one that is not a bundle", () =>
    Effect.gen(function* () {
      const { issue, open } = yield* challenges
      const first = yield* issue({ length: 6, alphanumeric: false })
      const second = yield* issue({ length: 6, alphanumeric: false })
      const bundle = yield* answer(first, Redacted.value(first.code), Signer.generateKeyPair().publicKeyCompressed)
      const parsed = JSON.parse(bundle) as { encappedPublic: string; ciphertext: string }
      const altered = JSON.stringify({ ...parsed, ciphertext: `${parsed.ciphertext.slice(0, -2)}00` })
      for (const [encryptedOtpBundle, sealedTargetKey] of [
        [bundle, second.sealedTargetKey],
        [altered, first.sealedTargetKey],
        ["{}", first.sealedTargetKey],
        ["not json", first.sealedTargetKey]
      ] as const) {
        const error = yield* Effect.flip(open({ encryptedOtpBundle, sealedTargetKey }))
        expect([error._tag, error.code, error.details]).toEqual([
          "WalletAuthFailed",
          "UNAUTHORIZED",
          { check: "otp_bundle" }
        ])
      }
    }).pipe(Effect.provide(live))
  )
})
