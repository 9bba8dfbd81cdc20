import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, Result } from "../src/index.js"

const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)
const fieldOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.field)

/** Node's base64url with the `=` padding RFC 4648 §5 allows: the form a padding client sends. */
const paddedBase64url = (bytes: Uint8Array): string =>
  Buffer.from(bytes).toString("base64").replaceAll("+", "-").replaceAll("/", "_")

describe("hex", () => {
  it("round-trips any bytes, emits lowercase like Node, and reads upper and mixed case", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.array(fc.boolean(), { maxLength: 200 }), (bytes, upper) => {
        const text = Encoding.toHex(bytes)
        expect(text).toBe(Buffer.from(bytes).toString("hex"))
        expect(Result.getOrThrow(Encoding.fromHex(text))).toEqual(bytes)
        expect(Result.getOrThrow(Encoding.fromHex(text.toUpperCase()))).toEqual(bytes)
        const mixed = [...text].map((c, i) => (upper[i] === true ? c.toUpperCase() : c)).join("")
        expect(Result.getOrThrow(Encoding.fromHex(mixed))).toEqual(bytes)
      })
    )
  })

  it("reads the empty text as no bytes", () => {
    expect(Result.getOrThrow(Encoding.fromHex(""))).toEqual(new Uint8Array(0))
    expect(Encoding.toHex(new Uint8Array(0))).toBe("")
  })

  it("names BadHex for an odd length or a non-hex character, with the field", () => {
    const odd = Encoding.fromHex("abc", "publicKey")
    expect(codeOf(odd)).toBe("BadHex")
    expect(fieldOf(odd)).toBe("publicKey")
    const foreign = Encoding.fromHex("0g", "signature")
    expect(codeOf(foreign)).toBe("BadHex")
    expect(fieldOf(foreign)).toBe("signature")
    for (const text of ["é0", "0x00", " 00 ", "00\n", "+1", "-1", "0１"])
      expect(codeOf(Encoding.fromHex(text))).toBe("BadHex")
  })

  it("rejects any text with a character outside 0-9a-fA-F, wherever it is", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.char().filter((c) => !/[0-9a-fA-F]/.test(c)),
        (bytes, at, c) => {
          const text = Encoding.toHex(bytes)
          const i = at % text.length
          expect(codeOf(Encoding.fromHex(text.slice(0, i) + c + text.slice(i + 1)))).toBe("BadHex")
        }
      )
    )
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

  it("reads correctly padded text as the same bytes as unpadded", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(Result.getOrThrow(Encoding.fromBase64url(paddedBase64url(bytes)))).toEqual(bytes)
      })
    )
    expect(Result.getOrThrow(Encoding.fromBase64url("YQ=="))).toEqual(Uint8Array.of(0x61))
    expect(Result.getOrThrow(Encoding.fromBase64url("YWI="))).toEqual(Uint8Array.of(0x61, 0x62))
  })

  it("reads the empty text as no bytes", () => {
    expect(Result.getOrThrow(Encoding.fromBase64url(""))).toEqual(new Uint8Array(0))
  })

  it("rejects wrong padding: too little, too much, or where none belongs", () => {
    for (const text of ["YQ=", "YQ===", "YWI==", "YWJj=", "YWJj====", "=", "==", "====", "Y===", "YQ==YQ==", "Y=Q="]) {
      expect([text, codeOf(Encoding.fromBase64url(text))]).toEqual([text, "BadBase64url"])
    }
  })

  it("has exactly one accepted encoding per byte string: non-zero trailing bits are rejected", () => {
    expect(codeOf(Encoding.fromBase64url("YR"))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("YWJ"))).toBe("BadBase64url")
    expect(codeOf(Encoding.fromBase64url("YR=="))).toBe("BadBase64url")
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }).filter((b) => b.length % 3 !== 0),
        (bytes) => {
          const text = Encoding.toBase64url(bytes)
          const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
          const last = alphabet.indexOf(text.at(-1) ?? "")
          // Setting the lowest bit of the last sextet touches only bits that carry no data.
          const other = `${text.slice(0, -1)}${alphabet.charAt(last | 1)}`
          if (other !== text) expect(codeOf(Encoding.fromBase64url(other))).toBe("BadBase64url")
        }
      )
    )
  })

  it("rejects the standard alphabet, impossible lengths, whitespace and foreign characters, with the field", () => {
    for (const text of ["a+b/", "abcde", "ab c", " YQ", "YQ\n", "YQ\t", "YWI.", "Y\u00e9", "YQ%3D"]) {
      const result = Encoding.fromBase64url(text, "stamp")
      expect([text, codeOf(result), fieldOf(result)]).toEqual([text, "BadBase64url", "stamp"])
    }
  })
})

describe("utf8", () => {
  it("round-trips any string made of whole code points, matching TextEncoder", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const bytes = Encoding.toUtf8(text)
        expect(bytes).toEqual(new TextEncoder().encode(text))
        expect(Result.getOrThrow(Encoding.fromUtf8(bytes))).toBe(text)
      })
    )
  })

  it("encodes a lone surrogate as U+FFFD, as every client hashing a payload does", () => {
    expect(Encoding.toHex(Encoding.toUtf8("a\ud800b"))).toBe("61efbfbd62")
  })

  it("keeps a leading byte order mark", () => {
    expect(Result.getOrThrow(Encoding.fromUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61)))).toBe("\ufeffa")
  })

  it("names BadUtf8 rather than substituting U+FFFD", () => {
    const result = Encoding.fromUtf8(Uint8Array.of(0x7b, 0xff, 0x7d), "stamp")
    expect(codeOf(result)).toBe("BadUtf8")
    expect(fieldOf(result)).toBe("stamp")
  })

  it("rejects overlong forms, surrogates, code points above U+10FFFF and truncated sequences", () => {
    for (const bytes of [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82]
    ]) {
      expect(codeOf(Encoding.fromUtf8(Uint8Array.from(bytes)))).toBe("BadUtf8")
    }
  })
})

describe("bytes", () => {
  it("concat joins in order into a new array", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 20 }), { maxLength: 5 }), (parts) => {
        const joined = Encoding.concat(...parts)
        expect(Buffer.from(joined)).toEqual(Buffer.concat(parts))
        if (parts.length === 1) expect(joined).not.toBe(parts[0])
      })
    )
  })

  it("equalBytes is true exactly for the same bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (a, b) => {
        expect(Encoding.equalBytes(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)))
        expect(Encoding.equalBytes(a, Uint8Array.from(a))).toBe(true)
      })
    )
  })
})
