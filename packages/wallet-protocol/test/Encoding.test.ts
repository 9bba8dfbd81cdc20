import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, Result } from "../src/index.js"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)

describe("hex", () => {
  it("round-trips any bytes and emits lowercase", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = Encoding.toHex(bytes)
        expect(text).toBe(Buffer.from(bytes).toString("hex"))
        expect(Result.getOrThrow(Encoding.fromHex(text))).toEqual(bytes)
        expect(Result.getOrThrow(Encoding.fromHex(text.toUpperCase()))).toEqual(bytes)
      })
    )
  })

  it("names BadHex for an odd length or a non-hex character, with the field", () => {
    const odd = Encoding.fromHex("abc", "publicKey")
    expect(codeOf(odd)).toBe("BadHex")
    expect(odd.ok ? undefined : odd.error.field).toBe("publicKey")
    expect(codeOf(Encoding.fromHex("0g"))).toBe("BadHex")
    expect(codeOf(Encoding.fromHex("é0"))).toBe("BadHex")
  })
})

describe("base64url", () => {
  it("round-trips any bytes, matching Node's unpadded base64url", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = Encoding.toBase64url(bytes)
        expect(text).toBe(Buffer.from(bytes).toString("base64url"))
        expect(Result.getOrThrow(Encoding.fromBase64url(text))).toEqual(bytes)
      })
    )
  })

  it("accepts correct padding and rejects wrong padding", () => {
    expect(Result.getOrThrow(Encoding.fromBase64url("YQ=="))).toEqual(Uint8Array.of(0x61))
    expect(Result.getOrThrow(Encoding.fromBase64url("YWI="))).toEqual(Uint8Array.of(0x61, 0x62))
    expect(codeOf(Encoding.fromBase64url("YQ="))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("YWI=="))).toBe("BadBase64url")
  })

  it("has exactly one accepted encoding per byte string: non-zero trailing bits are rejected", () => {
    expect(codeOf(Encoding.fromBase64url("YR"))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("YWJ"))).toBe("BadBase64url")
  })

  it("rejects the standard alphabet, impossible lengths and foreign characters", () => {
    expect(codeOf(Encoding.fromBase64url("a+b/"))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("abcde"))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("ab c"))).toBe("BadBase64url")
  })
})

describe("utf8", () => {
  it("round-trips any string made of whole code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(Result.getOrThrow(Encoding.fromUtf8(Encoding.toUtf8(text)))).toBe(text)
      })
    )
  })

  it("names BadUtf8 rather than substituting U+FFFD", () => {
    expect(codeOf(Encoding.fromUtf8(Uint8Array.of(0x7b, 0xff, 0x7d)))).toBe("BadUtf8")
  })
})
