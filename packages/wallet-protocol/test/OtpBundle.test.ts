import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, Hpke, OtpBundle, P256, Result, TargetBundle } from "../src/index.js"
import { flipByte, hex, vectors } from "./helpers/vectors.js"

const keyOf = (hexKey: string): P256.PublicKey => Result.getOrThrow(P256.parsePublicKey(hexKey))
const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("OtpBundle vectors", () => {
  for (const vector of vectors.otpBundles) {
    describe(vector.description, () => {
      it("opens to the expected plaintext bytes with the target private key", async () => {
        const bundle = Result.getOrThrow(OtpBundle.decode(vector.encryptedOtpBundle))
        const plaintext = Result.getOrThrow(
          await Hpke.open({
            enc: bundle.encappedPublic,
            ciphertext: bundle.ciphertext,
            recipient: vector.targetPrivateKeyHex
          })
        )
        expect(Buffer.from(plaintext).toString("utf8")).toBe(vector.expectedPlaintext)
      })

      it("opens to the OTP code and the TEK key as a point, whichever form was sent", async () => {
        const opened = Result.getOrThrow(
          await OtpBundle.open({ encryptedOtpBundle: vector.encryptedOtpBundle, recipient: vector.targetPrivateKeyHex })
        )
        expect(opened.otpCode).toBe(vector.otpCode)
        expect(opened.publicKeyHex).toBe(vector.tekPublicKeyHex)
        expect(P256.equals(opened.publicKey, P256.publicKeyOf(hex(vector.tekPrivateKeyHex)))).toBe(true)
      })

      it("re-encodes the decoded bundle to the same text", () => {
        expect(OtpBundle.encode(Result.getOrThrow(OtpBundle.decode(vector.encryptedOtpBundle)))).toBe(
          vector.encryptedOtpBundle
        )
      })

      it("uses AAD = enc ‖ targetPublic and a target taken from the signed bundle", () => {
        const target = Result.getOrThrow(
          TargetBundle.verify({ bundle: vector.targetBundle, signerPublicKey: keyOf(vector.signerPublicKeyHex) })
        )
        const targetPublic = Result.getOrThrow(TargetBundle.targetPublicKey(target))
        expect(targetPublic.uncompressedHex).toBe(vector.targetPublicKeyHex)
        const bundle = Result.getOrThrow(OtpBundle.decode(vector.encryptedOtpBundle))
        const aad = Encoding.toHex(Hpke.aad(bundle.encappedPublic, targetPublic))
        expect(aad).toBe(`${Encoding.toHex(bundle.encappedPublic)}${vector.targetPublicKeyHex}`)
        if (vector.hpkeIntermediates !== undefined) expect(aad).toBe(vector.hpkeIntermediates.aad)
      })

      if (vector.ephemeralPrivateKeyHex !== null) {
        const ephemeralPrivateKey = hex(vector.ephemeralPrivateKeyHex)
        it("is reproduced byte for byte with the vector's ephemeral key", async () => {
          const sealed = await OtpBundle.seal({
            targetPublicKey: keyOf(vector.targetPublicKeyHex),
            otpCode: vector.otpCode,
            publicKey: vector.tekPublicKeyHex,
            ephemeralPrivateKey
          })
          expect(Result.getOrThrow(sealed)).toBe(vector.encryptedOtpBundle)
        })
      }
    })
  }
})

describe("OtpBundle.decode", () => {
  const text = vectors.otpBundles[0]!.encryptedOtpBundle
  const json = JSON.parse(text) as { encappedPublic: string; ciphertext: string }

  it("accepts the Grid CLI's double-encoded form (a JSON string holding the JSON)", () => {
    expect(Result.getOrThrow(OtpBundle.decode(JSON.stringify(text)))).toEqual(Result.getOrThrow(OtpBundle.decode(text)))
  })

  it("accepts keys in any order", () => {
    const reordered = JSON.stringify({ ciphertext: json.ciphertext, encappedPublic: json.encappedPublic })
    expect(OtpBundle.decode(reordered).ok).toBe(true)
  })

  const cases: ReadonlyArray<[string, string, string]> = [
    ["not JSON", "{", "BadJson"],
    ["a triple-encoded value", JSON.stringify(JSON.stringify(text)), "BadJson"],
    ["a missing ciphertext", JSON.stringify({ encappedPublic: json.encappedPublic }), "BadField"],
    ["bad hex", JSON.stringify({ ...json, ciphertext: "xyz0" }), "BadHex"],
    [
      "a compressed encappedPublic",
      JSON.stringify({ ...json, encappedPublic: `02${json.encappedPublic.slice(2, 66)}` }),
      "WrongKeyLength"
    ],
    [
      "a wrong prefix",
      JSON.stringify({ ...json, encappedPublic: `05${json.encappedPublic.slice(2)}` }),
      "InvalidPublicKey"
    ],
    ["a ciphertext shorter than the tag", JSON.stringify({ ...json, ciphertext: "00".repeat(15) }), "BadField"]
  ]
  for (const [name, input, code] of cases) {
    it(`names ${code} for ${name}`, () => {
      expect(codeOf(OtpBundle.decode(input))).toBe(code)
    })
  }

  it("names AeadFailure when opened with the wrong target key", async () => {
    const wrongKey = vectors.otpBundles[1]!.targetPrivateKeyHex
    expect(codeOf(await OtpBundle.open({ encryptedOtpBundle: text, recipient: wrongKey }))).toBe("AeadFailure")
  })

  it("names InvalidPublicKey when encappedPublic is not on the curve", async () => {
    const offCurve = JSON.stringify({ ...json, encappedPublic: `04${"11".repeat(64)}` })
    const result = await OtpBundle.open({
      encryptedOtpBundle: offCurve,
      recipient: vectors.otpBundles[0]!.targetPrivateKeyHex
    })
    expect(codeOf(result)).toBe("InvalidPublicKey")
  })
})

describe("OtpBundle properties", () => {
  const target = P256.generateKeyPair()
  const keyArb = fc
    .uint8Array({ minLength: 48, maxLength: 48 })
    .map((seed) => P256.publicKeyOf(P256.privateKeyFromSeed(seed)))

  it("seal then open round-trips any OTP code and either TEK form", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme" }), keyArb, fc.boolean(), async (otpCode, tek, compressed) => {
        const publicKey = compressed ? tek.compressedHex : tek.uncompressedHex
        const encryptedOtpBundle = Result.getOrThrow(
          await OtpBundle.seal({ targetPublicKey: target.publicKey, otpCode, publicKey })
        )
        const opened = Result.getOrThrow(await OtpBundle.open({ encryptedOtpBundle, recipient: target.privateKey }))
        expect(opened.otpCode).toBe(otpCode)
        expect(opened.publicKeyHex).toBe(publicKey)
        expect(P256.equals(opened.publicKey, tek)).toBe(true)
      }),
      { numRuns: 25 }
    )
  })

  it("rejects any change to one byte of the encapsulated key or the ciphertext", async () => {
    const recipient = Result.getOrThrow(await Hpke.importRecipientKey(target.privateKey))
    const sealed = Result.getOrThrow(
      await OtpBundle.seal({
        targetPublicKey: target.publicKey,
        otpCode: "000000",
        publicKey: target.publicKey.compressedHex
      })
    )
    const bundle = Result.getOrThrow(OtpBundle.decode(sealed))
    const whole = Encoding.concat(bundle.encappedPublic, bundle.ciphertext)
    await fc.assert(
      fc.asyncProperty(fc.nat(whole.length - 1), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const tampered = flipByte(whole, at, flip)
        const text = OtpBundle.encode({ encappedPublic: tampered.subarray(0, 65), ciphertext: tampered.subarray(65) })
        const result = await OtpBundle.open({ encryptedOtpBundle: text, recipient })
        expect(result.ok).toBe(false)
      }),
      { numRuns: 100 }
    )
  })
})
