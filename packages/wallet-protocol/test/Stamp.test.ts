import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, P256, Result, Signature, Stamp } from "../src/index.js"
import { flipByte, hex, vectors } from "./helpers/vectors.js"

const stampOf = (json: object): string => Buffer.from(JSON.stringify(json)).toString("base64url")
const keyOf = (hexKey: string): P256.PublicKey => Result.getOrThrow(P256.parsePublicKey(hexKey))
const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("Stamp vectors", () => {
  for (const vector of vectors.stamps) {
    describe(vector.description, () => {
      it("verifies against the vector's public key, high-S or not", () => {
        const verified = Stamp.verify({
          stamp: vector.stampHeaderValue,
          payload: vector.payload,
          publicKey: keyOf(vector.publicKeyHex)
        })
        expect(verified.ok).toBe(true)
        if (!verified.ok) return
        expect(Signature.isHighS(verified.value.signature)).toBe(vector.signatureIsHighS)
      })

      it("decodes to the vector's JSON and re-encodes to the same header value", () => {
        const decoded = Result.getOrThrow(Stamp.decode(vector.stampHeaderValue))
        expect(JSON.stringify(decoded.stamp)).toBe(vector.decodedStampJson)
        expect(Stamp.encode(decoded.stamp)).toBe(vector.stampHeaderValue)
        if (vector.signatureRawRSHex !== undefined) {
          expect(Encoding.toHex(Signature.toCompact(decoded.signature))).toBe(vector.signatureRawRSHex)
        }
        if (vector.signatureDerLength !== undefined) {
          expect(decoded.signature.der.length).toBe(vector.signatureDerLength)
        }
      })

      if (vector.payloadUtf8Hex !== undefined) {
        it("signs the exact UTF-8 bytes of the payload", () => {
          expect(Encoding.toHex(Stamp.payloadBytes(vector.payload))).toBe(vector.payloadUtf8Hex)
        })
      }

      if (vector.deterministic) {
        it("is reproduced byte for byte from the private key", () => {
          expect(Result.getOrThrow(Stamp.create({ payload: vector.payload, privateKey: vector.privateKeyHex }))).toBe(
            vector.stampHeaderValue
          )
        })
      }
    })
  }
})

describe("Stamp.verify", () => {
  const vector = vectors.stamps[0]!
  const decoded = Result.getOrThrow(Stamp.decode(vector.stampHeaderValue))

  it("compares keys as points: an uncompressed or uppercase stamp key matches a compressed registered key", () => {
    const key = keyOf(vector.publicKeyHex)
    for (const publicKey of [key.uncompressedHex, key.uncompressedHex.toUpperCase(), key.compressedHex.toUpperCase()]) {
      const stamp = Stamp.encode({ ...decoded.stamp, publicKey })
      expect(Stamp.verify({ stamp, payload: vector.payload, publicKey: key }).ok).toBe(true)
    }
  })

  it("rejects a valid stamp by another key with KeyMismatch", () => {
    const other = keyOf(vectors.stamps[1]!.publicKeyHex)
    expect(codeOf(Stamp.verify({ stamp: vector.stampHeaderValue, payload: vector.payload, publicKey: other }))).toBe(
      "KeyMismatch"
    )
  })

  it("rejects a stamp whose embedded key did not make the signature (the Node stamper quirk)", () => {
    const foreign = Stamp.encode({ ...decoded.stamp, publicKey: vectors.stamps[1]!.publicKeyHex })
    expect(codeOf(Stamp.verify({ stamp: foreign, payload: vector.payload }))).toBe("BadSignature")
  })

  it("rejects a payload that differs by trailing whitespace", () => {
    expect(codeOf(Stamp.verify({ stamp: vector.stampHeaderValue, payload: `${vector.payload}\n` }))).toBe(
      "BadSignature"
    )
  })
})

describe("Stamp.decode errors", () => {
  const good = JSON.parse(vectors.stamps[0]!.decodedStampJson) as Record<string, string>
  const cases: ReadonlyArray<[string, string, string]> = [
    ["bad base64url", "eyJ+", "BadBase64url"],
    ["standard base64 alphabet", `${vectors.stamps[0]!.stampHeaderValue.slice(0, 8)}+/`, "BadBase64url"],
    ["not JSON", Buffer.from("not json").toString("base64url"), "BadJson"],
    ["a JSON array", stampOf([1, 2]), "BadJson"],
    ["missing signature", stampOf({ publicKey: good["publicKey"], scheme: Stamp.SCHEME }), "BadField"],
    ["wrong scheme", stampOf({ ...good, scheme: "SIGNATURE_SCHEME_TK_API_ED25519" }), "WrongScheme"],
    ["bad hex key", stampOf({ ...good, publicKey: "zz" }), "BadHex"],
    ["wrong key length", stampOf({ ...good, publicKey: "02abcd" }), "WrongKeyLength"],
    ["bad key prefix", stampOf({ ...good, publicKey: `05${"00".repeat(32)}` }), "InvalidPublicKey"],
    ["truncated DER", stampOf({ ...good, signature: good["signature"]!.slice(0, 100) }), "TruncatedDer"],
    ["raw r||s instead of DER", stampOf({ ...good, signature: vectors.stamps[0]!.signatureRawRSHex! }), "BadDer"]
  ]
  for (const [name, value, code] of cases) {
    it(`names ${code} for ${name}`, () => {
      expect(codeOf(Stamp.decode(value))).toBe(code)
    })
  }

  it("accepts padded base64url, as the recipe tolerates either", () => {
    const value = vectors.stamps[0]!.stampHeaderValue
    const padded = value + "=".repeat((4 - (value.length % 4)) % 4)
    expect(Stamp.decode(padded).ok).toBe(true)
  })
})

describe("Stamp properties", () => {
  const privateKeyArb = fc.uint8Array({ minLength: 48, maxLength: 48 }).map(P256.privateKeyFromSeed)

  it("create then verify round-trips for any key and any payload", () => {
    fc.assert(
      fc.property(privateKeyArb, fc.string({ unit: "grapheme" }), (privateKey, payload) => {
        const stamp = Result.getOrThrow(Stamp.create({ payload, privateKey }))
        const decoded = Result.getOrThrow(Stamp.decode(stamp))
        expect(decoded.stamp.publicKey).toBe(P256.publicKeyOf(privateKey).compressedHex)
        expect(Stamp.verify({ stamp, payload, publicKey: P256.publicKeyOf(privateKey) }).ok).toBe(true)
      }),
      { numRuns: 50 }
    )
  })

  it("rejects any change to one byte of the payload", () => {
    fc.assert(
      fc.property(
        privateKeyArb,
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (privateKey, payload, at, flip) => {
          const stamp = Result.getOrThrow(Stamp.create({ payload, privateKey }))
          const tampered = flipByte(payload, at, flip)
          expect(codeOf(Stamp.verify({ stamp, payload: tampered }))).toBe("BadSignature")
        }
      ),
      { numRuns: 50 }
    )
  })

  it("rejects any change to one byte of the stamp, unless it only changed the case of a hex digit", () => {
    const vector = vectors.stamps[3]!
    const original = Result.getOrThrow(Stamp.decode(vector.stampHeaderValue))
    const json = Buffer.from(vector.decodedStampJson)
    const publicKey = keyOf(vector.publicKeyHex)
    fc.assert(
      fc.property(fc.nat(json.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const bytes = flipByte(json, at, flip)
        const result = Stamp.verify({ stamp: Encoding.toBase64url(bytes), payload: vector.payload, publicKey })
        if (result.ok) {
          expect(result.value.stamp.publicKey.toLowerCase()).toBe(original.stamp.publicKey)
          expect(result.value.stamp.signature.toLowerCase()).toBe(original.stamp.signature)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("rejects any change to one byte of the DER signature", () => {
    const vector = vectors.stamps[0]!
    const decoded = Result.getOrThrow(Stamp.decode(vector.stampHeaderValue))
    fc.assert(
      fc.property(fc.nat(decoded.signature.der.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const der = flipByte(decoded.signature.der, at, flip)
        const stamp = Stamp.encode({ ...decoded.stamp, signature: Encoding.toHex(der) })
        expect(Stamp.verify({ stamp, payload: hex(vector.payloadUtf8Hex!) }).ok).toBe(false)
      }),
      { numRuns: 300 }
    )
  })
})
