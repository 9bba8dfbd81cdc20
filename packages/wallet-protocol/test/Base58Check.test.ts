import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Base58Check, Encoding, Result } from "../src/index.js"

describe("Base58Check", () => {
  it("encodes in the Bitcoin alphabet, leading zero bytes as '1'", () => {
    expect(Base58Check.encodeBase58(Encoding.toUtf8("hello world"))).toBe("StV1DL6CwTryKyV")
    expect(Base58Check.encodeBase58(Uint8Array.of(0, 0, 1))).toBe("112")
    expect(Base58Check.encodeBase58(new Uint8Array(0))).toBe("")
  })

  it("round-trips any payload through base58 and base58check", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 90 }), (payload) => {
        expect(Result.getOrThrow(Base58Check.decodeBase58(Base58Check.encodeBase58(payload)))).toEqual(payload)
        expect(Result.getOrThrow(Base58Check.decode(Base58Check.encode(payload)))).toEqual(payload)
      })
    )
  })

  it("appends the first four bytes of double SHA-256, with no version byte", () => {
    const full = Result.getOrThrow(Base58Check.decodeBase58(Base58Check.encode(Uint8Array.of(0xab))))
    expect(Encoding.toHex(full)).toBe("aba420fdd1")
  })

  it("names BadBase58, and BadChecksum for a short or altered input", () => {
    const code = (r: Result.Result<Uint8Array>) => (r.ok ? undefined : r.error.code)
    expect(code(Base58Check.decode("0OIl"))).toBe("BadBase58")
    expect(code(Base58Check.decode("1"))).toBe("BadChecksum")
    const good = Base58Check.encode(Encoding.toUtf8("payload"))
    expect(code(Base58Check.decode(`${good.slice(0, -1)}${good.endsWith("2") ? "3" : "2"}`))).toBe("BadChecksum")
  })
})
