import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, P256, Result, Signature, TargetBundle } from "../src/index.js"
import { flipByte, hex, vectors } from "./helpers/vectors.js"

const keyOf = (hexKey: string): P256.PublicKey => Result.getOrThrow(P256.parsePublicKey(hexKey))
const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("TargetBundle vectors", () => {
  for (const vector of vectors.otpBundles) {
    it(`${vector.description}: is reproduced byte for byte from the signer and target keys`, () => {
      const bundle = TargetBundle.createOtpTarget({
        targetPublicKey: P256.publicKeyOf(hex(vector.targetPrivateKeyHex)),
        signerPrivateKey: vector.signerPrivateKeyHex
      })
      expect(Result.getOrThrow(bundle)).toBe(vector.targetBundle)
    })

    it(`${vector.description}: verifies against the signer key and exposes the data JSON`, () => {
      const decoded = Result.getOrThrow(
        TargetBundle.verify({ bundle: vector.targetBundle, signerPublicKey: keyOf(vector.signerPublicKeyHex) })
      )
      expect(Buffer.from(decoded.data).toString("utf8")).toBe(vector.targetBundleDataJson)
      expect(decoded.bundle.enclaveQuorumPublic).toBe(vector.signerPublicKeyHex)
    })
  }

  for (const vector of vectors.realTurnkeySignedBundles) {
    describe(vector.description, () => {
      const signer = (JSON.parse(vector.bundle) as { enclaveQuorumPublic: string }).enclaveQuorumPublic

      it("verifies the production Turnkey signature", () => {
        const decoded = Result.getOrThrow(
          TargetBundle.verify({ bundle: vector.bundle, signerPublicKey: keyOf(signer) })
        )
        expect(Signature.isHighS(decoded.dataSignature)).toBe(vector.signatureIsHighS)
        expect(Result.getOrThrow(TargetBundle.dataJson(decoded))).toEqual(vector.decodedData)
        expect(Result.getOrThrow(TargetBundle.targetPublicKey(decoded)).uncompressedHex).toBe(
          vector.decodedData["targetPublic"]
        )
      })

      it("re-encodes to the same text", () => {
        const decoded = Result.getOrThrow(TargetBundle.decode(vector.bundle))
        expect(TargetBundle.encode(decoded.bundle)).toBe(vector.bundle)
      })

      it("names SignerMismatch when a different signer is expected", () => {
        const ours = keyOf(vectors.otpBundles[0]!.signerPublicKeyHex)
        expect(codeOf(TargetBundle.verify({ bundle: vector.bundle, signerPublicKey: ours }))).toBe("SignerMismatch")
      })
    })
  }
})

describe("TargetBundle.decode errors", () => {
  const fields = JSON.parse(vectors.otpBundles[0]!.targetBundle) as TargetBundle.TargetBundle
  const cases: ReadonlyArray<[string, string, string]> = [
    ["not JSON", "nope", "BadJson"],
    ["a missing data field", JSON.stringify({ ...fields, data: undefined }), "BadField"],
    ["an unknown version", JSON.stringify({ ...fields, version: "v2.0.0" }), "UnsupportedVersion"],
    ["bad data hex", JSON.stringify({ ...fields, data: "7g" }), "BadHex"],
    [
      "a truncated signature",
      JSON.stringify({ ...fields, dataSignature: fields.dataSignature.slice(0, 20) }),
      "TruncatedDer"
    ],
    [
      "a compressed signer key",
      JSON.stringify({ ...fields, enclaveQuorumPublic: keyOf(fields.enclaveQuorumPublic).compressedHex }),
      "WrongKeyLength"
    ]
  ]
  for (const [name, input, code] of cases) {
    it(`names ${code} for ${name}`, () => {
      expect(codeOf(TargetBundle.decode(input))).toBe(code)
    })
  }

  it("names WrongKeyLength when targetPublic is compressed", () => {
    const signer = P256.generateKeyPair()
    const data = Encoding.toUtf8(JSON.stringify({ targetPublic: signer.publicKey.compressedHex }))
    const bundle = Result.getOrThrow(TargetBundle.sign({ data, signerPrivateKey: signer.privateKey }))
    const decoded = Result.getOrThrow(TargetBundle.verify({ bundle, signerPublicKey: signer.publicKey }))
    expect(codeOf(TargetBundle.targetPublicKey(decoded))).toBe("WrongKeyLength")
  })
})

describe("TargetBundle properties", () => {
  const signer = P256.generateKeyPair()

  it("sign then verify round-trips any data", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (data) => {
        const bundle = Result.getOrThrow(TargetBundle.sign({ data, signerPrivateKey: signer.privateKey }))
        const decoded = Result.getOrThrow(TargetBundle.verify({ bundle, signerPublicKey: signer.publicKey }))
        expect(decoded.data).toEqual(data)
      }),
      { numRuns: 50 }
    )
  })

  it("rejects any change to one byte of the signed data or of the signature", () => {
    const data = Encoding.toUtf8(JSON.stringify({ targetPublic: signer.publicKey.uncompressedHex }))
    const fields = JSON.parse(
      Result.getOrThrow(TargetBundle.sign({ data, signerPrivateKey: signer.privateKey }))
    ) as TargetBundle.TargetBundle
    const signature = hex(fields.dataSignature)
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), (inData, at, flip) => {
        const bundle = TargetBundle.encode(
          inData
            ? { ...fields, data: Encoding.toHex(flipByte(data, at, flip)) }
            : { ...fields, dataSignature: Encoding.toHex(flipByte(signature, at, flip)) }
        )
        expect(TargetBundle.verify({ bundle, signerPublicKey: signer.publicKey }).ok).toBe(false)
      }),
      { numRuns: 200 }
    )
  })

  it("rejects any change to one byte of the bundle text, unless it only changed the case of a hex digit", () => {
    const text = vectors.otpBundles[0]!.targetBundle
    const signerPublicKey = keyOf(vectors.otpBundles[0]!.signerPublicKeyHex)
    const bytes = Encoding.toUtf8(text)
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const tampered = Buffer.from(flipByte(bytes, at, flip)).toString("latin1")
        const result = TargetBundle.verify({ bundle: tampered, signerPublicKey })
        if (result.ok) expect(tampered.toLowerCase()).toBe(text.toLowerCase())
      }),
      { numRuns: 300 }
    )
  })
})
