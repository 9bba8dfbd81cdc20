import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, P256, Result } from "../src/index.js"
import { hex, vectors } from "./helpers/vectors.js"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)
const ORDER_HEX = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"

describe("P256 keys", () => {
  it("derives the vectors' compressed public keys from their private keys", () => {
    for (const vector of vectors.stamps) {
      expect(P256.publicKeyOf(hex(vector.privateKeyHex)).compressedHex).toBe(vector.publicKeyHex)
    }
  })

  it("parses both forms, in either case, to the same point", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 48, maxLength: 48 }), (seed) => {
        const key = P256.publicKeyOf(P256.privateKeyFromSeed(seed))
        for (const form of [
          key.compressedHex,
          key.uncompressedHex,
          key.compressedHex.toUpperCase(),
          key.uncompressed
        ]) {
          const parsed = Result.getOrThrow(P256.parsePublicKey(form))
          expect(P256.equals(parsed, key)).toBe(true)
          expect(parsed.uncompressedHex).toBe(key.uncompressedHex)
        }
        expect(P256.compress(key.uncompressed)).toEqual(key.compressed)
        expect(P256.matchesHex(key, key.uncompressedHex.toUpperCase())).toBe(true)
      }),
      { numRuns: 30 }
    )
  })

  it("does not match a different point", () => {
    const [a, b] = [P256.generateKeyPair().publicKey, P256.generateKeyPair().publicKey]
    expect(P256.equals(a, b)).toBe(false)
    expect(P256.matchesHex(a, b.compressedHex)).toBe(false)
  })

  const publicCases: ReadonlyArray<[string, string, string]> = [
    ["bad hex", "02zz", "BadHex"],
    ["32 bytes", "02".repeat(32), "WrongKeyLength"],
    ["a 33-byte key with an 04 prefix", `04${"11".repeat(32)}`, "InvalidPublicKey"],
    ["an x with no point on the curve", `02${"00".repeat(31)}01`, "InvalidPublicKey"],
    ["an uncompressed key off the curve", `04${"11".repeat(64)}`, "InvalidPublicKey"]
  ]
  for (const [name, input, code] of publicCases) {
    it(`names ${code} for a public key that is ${name}`, () => {
      expect(codeOf(P256.parsePublicKey(input))).toBe(code)
    })
  }

  it("requires the uncompressed form where the format does", () => {
    const key = P256.generateKeyPair().publicKey
    expect(codeOf(P256.parseUncompressedPublicKey(key.compressedHex))).toBe("WrongKeyLength")
    expect(Result.getOrThrow(P256.parseUncompressedPublicKey(key.uncompressedHex)).compressedHex).toBe(
      key.compressedHex
    )
  })

  it("names the private key defects", () => {
    expect(codeOf(P256.parsePrivateKey("00".repeat(31)))).toBe("WrongKeyLength")
    expect(codeOf(P256.parsePrivateKey("00".repeat(32)))).toBe("InvalidPrivateKey")
    expect(codeOf(P256.parsePrivateKey(ORDER_HEX))).toBe("InvalidPrivateKey")
    expect(codeOf(P256.parsePrivateKey("xy".repeat(32)))).toBe("BadHex")
    expect(
      Encoding.toHex(Result.getOrThrow(P256.parsePrivateKey(vectors.stamps[0]!.privateKeyHex.toUpperCase())))
    ).toBe(vectors.stamps[0]!.privateKeyHex)
  })

  it("reduces a seed to a valid scalar deterministically", () => {
    const seed = new Uint8Array(P256.SEED_LENGTH).fill(0xff)
    const key = P256.privateKeyFromSeed(seed)
    expect(P256.parsePrivateKey(key).ok).toBe(true)
    expect(P256.privateKeyFromSeed(seed)).toEqual(key)
  })
})
