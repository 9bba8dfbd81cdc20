import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Encoding, Result, Signature } from "../src/index.js"

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
const codeOf = <A>(result: Result.Result<A>): string | undefined => (result.ok ? undefined : result.error.code)
const scalarArb = fc.bigInt({ min: 1n, max: N - 1n })

describe("DER signatures", () => {
  it("encode then decode round-trips any r and s, including small and high-S values", () => {
    fc.assert(
      fc.property(scalarArb, scalarArb, (r, s) => {
        const der = Signature.encodeDer({ r, s })
        const decoded = Result.getOrThrow(Signature.decodeDer(der))
        expect([decoded.r, decoded.s]).toEqual([r, s])
        expect(Signature.isHighS(decoded)).toBe(s > N / 2n)
      })
    )
  })

  it("decodes a minimal 31-byte s, as OpenSSL emits it", () => {
    const hexSig =
      "3044022100e55a1e279d89aa18b7990b4aad599e82a68e311328d4273d1d823efb0c4115dd021f7c75fd1508031fe0ec247f3f74cff9bba68867c9674effe3dbeb0c49a11352"
    expect(Result.getOrThrow(Signature.decodeDerHex(hexSig)).s.toString(16)).toHaveLength(62)
  })

  const valid = Encoding.toHex(Signature.encodeDer({ r: 0x1234n, s: 0x5678n }))
  const cases: ReadonlyArray<[string, string, string]> = [
    ["empty input", "", "TruncatedDer"],
    ["a declared length past the end", "3008020112", "TruncatedDer"],
    ["an INTEGER running past the sequence", "30060201120203", "TruncatedDer"],
    ["a wrong outer tag", `31${valid.slice(2)}`, "BadDer"],
    ["a long-form length", "308108020112020156", "BadDer"],
    ["trailing bytes", `${valid}00`, "BadDer"],
    ["a negative r", "3006020180020101", "BadDer"],
    ["an unnecessary leading zero", "300702020012020101", "BadDer"],
    ["r = 0", "3006020100020101", "BadDer"],
    ["s = n", `3026020101022100${N.toString(16)}`, "BadDer"],
    ["bad hex", "30zz", "BadHex"]
  ]
  for (const [name, input, code] of cases) {
    it(`names ${code} for ${name}`, () => {
      expect(codeOf(Signature.decodeDerHex(input))).toBe(code)
    })
  }

  it("converts to the 64-byte r ‖ s form", () => {
    const compact = Signature.toCompact({ r: 1n, s: N - 1n })
    expect(compact).toHaveLength(64)
    expect(compact[31]).toBe(1)
    expect(Encoding.toHex(compact.subarray(32))).toBe((N - 1n).toString(16))
  })
})
