import { describe, expect, it } from "@effect/vitest"
import { decode, decodeCheck } from "@payrail/core/internal/base58"

const hex = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString("hex"))

describe("base58", () => {
  it("decodes the Bitcoin alphabet with leading ones as zero bytes", () => {
    expect(hex(decode("1"))).toBe("00")
    expect(hex(decode("11"))).toBe("0000")
    expect(hex(decode("2g"))).toBe("61")
    expect(hex(decode("a3gV"))).toBe("626262")
    expect(hex(decode("StV1DL6CwTryKyV"))).toBe("68656c6c6f20776f726c64")
  })

  it("refuses empty text and characters outside the alphabet", () => {
    expect(decode("")).toBeUndefined()
    for (const text of ["0", "O", "I", "l", "a+b"]) expect(decode(text)).toBeUndefined()
  })

  it("checks base58check checksums", () => {
    expect(hex(decodeCheck("1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs"))).toBe("00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31")
    expect(decodeCheck("1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAt")).toBeUndefined()
    expect(decodeCheck("1111")).toBeUndefined()
  })
})
