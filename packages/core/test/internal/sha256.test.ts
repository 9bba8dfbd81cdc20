import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { sha256 } from "@payrail/core/internal/sha256"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const ascii = (text: string) => Uint8Array.from(Buffer.from(text, "latin1"))

describe("sha256", () => {
  it("matches the FIPS 180-2 vectors", () => {
    expect(hex(sha256(new Uint8Array()))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    expect(hex(sha256(ascii("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(hex(sha256(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    )
    expect(hex(sha256(ascii("a".repeat(1_000_000))))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    )
  })

  it("agrees with node:crypto on any input, across block boundaries", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(hex(sha256(bytes))).toBe(createHash("sha256").update(bytes).digest("hex"))
      })
    )
  })
})
