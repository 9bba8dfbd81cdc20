import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Totp } from "@payrail/core"

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes; ours are their last 6 digits.
const seed = new TextEncoder().encode("12345678901234567890")
const vectors: ReadonlyArray<readonly [number, string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"]
]

describe("Totp", () => {
  it.effect("gives the RFC 6238 test vectors (6 digits)", () =>
    Effect.gen(function* () {
      for (const [seconds, code] of vectors) expect(yield* Totp.codeAt(seed, seconds * 1000)).toBe(code.slice(2))
    })
  )

  it("round-trips base32 (RFC 4648)", () => {
    expect(Totp.base32(new TextEncoder().encode("foobar"))).toBe("MZXW6YTBOI")
    expect(new TextDecoder().decode(Totp.fromBase32("mzxw6ytboi"))).toBe("foobar")
  })

  it.effect("verifies the code of now and of one step either side, nothing further", () =>
    Effect.gen(function* () {
      const secret = Totp.base32(seed)
      const at = 1_234_567_890_000
      expect(yield* Totp.verify(secret, yield* Totp.codeAt(seed, at), at)).toBe(true)
      expect(yield* Totp.verify(secret, yield* Totp.codeAt(seed, at - 30_000), at)).toBe(true)
      expect(yield* Totp.verify(secret, yield* Totp.codeAt(seed, at + 30_000), at)).toBe(true)
      expect(yield* Totp.verify(secret, yield* Totp.codeAt(seed, at - 90_000), at)).toBe(false)
    })
  )
})
