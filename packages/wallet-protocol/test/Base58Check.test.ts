import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Base58Check, Encoding, Result } from "../src/index.js"

const code = (r: Result.Result<Uint8Array>) => (r.ok ? undefined : r.error.code)

describe("Base58Check", () => {
  it("encodes in the Bitcoin alphabet, leading zero bytes as '1'", () => {
    expect(Base58Check.encodeBase58(Encoding.toUtf8("hello world"))).toBe("StV1DL6CwTryKyV")
    expect(Base58Check.encodeBase58(Uint8Array.of(0, 0, 1))).toBe("112")
    expect(Base58Check.encodeBase58(new Uint8Array(0))).toBe("")
  })

  it("round-trips any payload through base58 and base58check, leading zero bytes included", () => {
    fc.assert(
      fc.property(fc.nat({ max: 4 }), fc.uint8Array({ maxLength: 90 }), (zeros, rest) => {
        const payload = Encoding.concat(new Uint8Array(zeros), rest)
        const text = Base58Check.encodeBase58(payload)
        expect(text.startsWith("1".repeat(zeros))).toBe(true)
        expect(Result.getOrThrow(Base58Check.decodeBase58(text))).toEqual(payload)
        expect(Result.getOrThrow(Base58Check.decode(Base58Check.encode(payload)))).toEqual(payload)
      })
    )
  })

  it("reads each leading '1' as a zero byte and the empty text as no bytes", () => {
    expect(Result.getOrThrow(Base58Check.decodeBase58(""))).toEqual(new Uint8Array(0))
    expect(Result.getOrThrow(Base58Check.decodeBase58("1"))).toEqual(Uint8Array.of(0))
    expect(Result.getOrThrow(Base58Check.decodeBase58("112"))).toEqual(Uint8Array.of(0, 0, 1))
    expect(Encoding.toHex(Result.getOrThrow(Base58Check.decodeBase58("1StV1DL6CwTryKyV")))).toBe(
      `00${Encoding.toHex(Encoding.toUtf8("hello world"))}`
    )
  })

  it("matches Bitcoin's base58check of a version-0 address (the version byte is part of the payload)", () => {
    const payload = Result.getOrThrow(Encoding.fromHex("00010966776006953D5567439E5E39F86A0D273BEE"))
    expect(Base58Check.encode(payload)).toBe("16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM")
    expect(Result.getOrThrow(Base58Check.decode("16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM"))).toEqual(payload)
  })

  it("appends the first four bytes of double SHA-256, with no version byte", () => {
    const full = Result.getOrThrow(Base58Check.decodeBase58(Base58Check.encode(Uint8Array.of(0xab))))
    expect(Encoding.toHex(full)).toBe("aba420fdd1")
  })

  it("names BadBase58, and BadChecksum for a short or altered input", () => {
    expect(code(Base58Check.decode("0OIl"))).toBe("BadBase58")
    expect(code(Base58Check.decode("1"))).toBe("BadChecksum")
    expect(code(Base58Check.decode(""))).toBe("BadChecksum")
    expect(code(Base58Check.decode("2NEpo6"))).toBe("BadChecksum")
    const good = Base58Check.encode(Encoding.toUtf8("payload"))
    expect(code(Base58Check.decode(`${good.slice(0, -1)}${good.endsWith("2") ? "3" : "2"}`))).toBe("BadChecksum")
  })

  it("names BadBase58 for 0, O, I, l, '+', '/', whitespace or a non-ASCII character anywhere, with the field", () => {
    const good = Base58Check.encode(Encoding.toUtf8("payload"))
    for (const c of ["0", "O", "I", "l", "+", "/", " ", "\n", "é", "１"]) {
      for (const at of [0, 5, good.length - 1]) {
        const result = Base58Check.decode(good.slice(0, at) + c + good.slice(at + 1), "bundle")
        expect([c, at, code(result), result.ok ? undefined : result.error.field]).toEqual([
          c,
          at,
          "BadBase58",
          "bundle"
        ])
        expect([c, at, code(Base58Check.decodeBase58(good.slice(0, at) + c + good.slice(at + 1)))]).toEqual([
          c,
          at,
          "BadBase58"
        ])
      }
    }
  })

  it("bounds the quadratic conversion: longer texts are BadBase58, larger payloads a RangeError", () => {
    const longest = "1".repeat(Base58Check.MAX_TEXT_LENGTH)
    expect(Result.getOrThrow(Base58Check.decodeBase58(longest))).toEqual(new Uint8Array(Base58Check.MAX_TEXT_LENGTH))
    expect(code(Base58Check.decodeBase58(`${longest}1`))).toBe("BadBase58")
    expect(code(Base58Check.decode(`${longest}1`))).toBe("BadBase58")
    const largest = new Uint8Array(Base58Check.MAX_BYTES - 4).fill(0xff)
    expect(Result.getOrThrow(Base58Check.decode(Base58Check.encode(largest)))).toEqual(largest)
    expect(() => Base58Check.encode(new Uint8Array(Base58Check.MAX_BYTES - 3))).toThrow(RangeError)
    expect(() => Base58Check.encodeBase58(new Uint8Array(Base58Check.MAX_BYTES + 1))).toThrow(RangeError)
  })
})
