import { describe, expect, it } from "@effect/vitest"
import { decode, isCharsetOnly, toBytes } from "@payrail/core/internal/bech32"

const hex = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString("hex"))

describe("bech32", () => {
  it("accepts the BIP-173 and BIP-350 valid strings with their own checksum only", () => {
    for (const text of [
      "A12UEL5L",
      "a12uel5l",
      "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
      "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w"
    ]) {
      expect(decode(text, "bech32")).toBeDefined()
      expect(decode(text, "bech32m")).toBeUndefined()
    }
    for (const text of ["A1LQFN3A", "a1lqfn3a", "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx"]) {
      expect(decode(text, "bech32m")).toBeDefined()
      expect(decode(text, "bech32")).toBeUndefined()
    }
  })

  it("refuses mixed case, a missing separator, short checksums and bad characters", () => {
    for (const text of ["A12uEL5L", "pzry9x0s0muk", "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "a12UEL5L"]) {
      expect(decode(text, "bech32")).toBeUndefined()
    }
  })

  it("unpacks 5-bit words to bytes, refusing non-zero or overlong padding", () => {
    const words = decode("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bech32")?.words ?? []
    expect(hex(toBytes(words.slice(1)))).toBe("751e76e8199196d454941c45d1b3a323f1433bd6")
    expect(toBytes([31])).toBeUndefined()
    expect(toBytes([0])).toBeUndefined()
    expect(toBytes([0, 1])).toBeUndefined()
    expect(hex(toBytes([0, 0]))).toBe("00")
    expect(isCharsetOnly("qpzry")).toBe(true)
    expect(isCharsetOnly("QPZry")).toBe(false)
    expect(isCharsetOnly("qpzrb")).toBe(false)
  })
})
