import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { keccak256, sha3_256 } from "@payrail/core/internal/keccak"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const ascii = (text: string) => Uint8Array.from(Buffer.from(text, "latin1"))

describe("keccak", () => {
  it("matches the Keccak-256 vectors Ethereum uses", () => {
    expect(hex(keccak256(new Uint8Array()))).toBe("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    expect(hex(keccak256(ascii("abc")))).toBe("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    expect(hex(keccak256(ascii("The quick brown fox jumps over the lazy dog")))).toBe(
      "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15"
    )
  })

  it("runs the same permutation as node:crypto's SHA3-256 on any input, across the 136-byte rate", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 420 }), (bytes) => {
        expect(hex(sha3_256(bytes))).toBe(createHash("sha3-256").update(bytes).digest("hex"))
      })
    )
  })
})
