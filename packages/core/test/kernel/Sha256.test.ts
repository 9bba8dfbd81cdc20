import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Sha256 } from "@payrail/core"

describe("Sha256", () => {
  it.effect("hashes the UTF-8 bytes of a text as lowercase hex (FIPS 180-2 vector, non-ASCII)", () =>
    Effect.gen(function* () {
      expect(yield* Sha256.hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
      expect(yield* Sha256.hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
      expect(yield* Sha256.hex("é")).not.toBe(yield* Sha256.hex("e"))
    })
  )

  it("gives one canonical text for bodies that differ only in key order, whitespace or undefined members", () => {
    const a = Sha256.canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: "z" }, skipped: undefined })
    const b = Sha256.canonicalJson(JSON.parse('{ "a": { "c": "z", "d": [2, {"x": 0, "y": 1}] }, "b": 1 }'))
    expect(a).toBe(b)
    expect(a).toBe('{"a":{"c":"z","d":[2,{"x":0,"y":1}]},"b":1}')
    // Array order is meaning, not formatting.
    expect(Sha256.canonicalJson([1, 2])).not.toBe(Sha256.canonicalJson([2, 1]))
    expect(Sha256.canonicalJson(undefined)).toBe("")
  })
})
