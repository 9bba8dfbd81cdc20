import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeUtf8Portable } from "../../src/internal/utf8.js"

const reference = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const decodeReference = (bytes: Uint8Array): string | undefined => {
  try {
    return reference.decode(bytes)
  } catch {
    return undefined
  }
}

describe("decodeUtf8Portable (the decoder for engines without TextDecoder)", () => {
  it("agrees with a fatal TextDecoder on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        expect(decodeUtf8Portable(bytes)).toBe(decodeReference(bytes))
      }),
      { numRuns: 2000 }
    )
  })

  it("agrees with TextDecoder on valid text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const bytes = new TextEncoder().encode(text)
        expect(decodeUtf8Portable(bytes)).toBe(text)
      })
    )
  })

  it("rejects overlong forms, surrogates and code points above U+10FFFF", () => {
    for (const bytes of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      expect(decodeUtf8Portable(Uint8Array.from(bytes))).toBeUndefined()
    }
  })
})
