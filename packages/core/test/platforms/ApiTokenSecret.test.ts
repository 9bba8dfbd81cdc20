import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { ApiTokenSecret, Ids } from "@payrail/core"

describe("ApiTokenSecret", () => {
  it.effect("issues Basic-safe credentials whose secret verifies against the stored hash only", () =>
    Effect.gen(function* () {
      const issued = yield* ApiTokenSecret.issue("SANDBOX")
      const secret = Redacted.value(issued.clientSecret)
      expect(issued.clientId).toMatch(/^pk_[A-Za-z0-9_-]{24}$/)
      expect(secret).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{43}$/)
      expect(issued.secretHash).toMatch(/^[0-9a-f]{64}$/)
      expect(issued.secretHash).not.toContain(secret)
      expect(yield* ApiTokenSecret.verify(issued.clientSecret, issued.secretHash)).toBe(true)
      expect(yield* ApiTokenSecret.verify(Redacted.make(`${secret}x`), issued.secretHash)).toBe(false)
      const live = yield* ApiTokenSecret.issue("PRODUCTION")
      expect(Redacted.value(live.clientSecret)).toMatch(/^sk_live_/)
      expect(live.clientId).not.toBe(issued.clientId)
    }).pipe(Effect.provide(Ids.layer))
  )

  it.effect("hashes with SHA-256", () =>
    Effect.gen(function* () {
      expect(yield* ApiTokenSecret.hash(Redacted.make("abc"))).toBe(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
      )
    })
  )

  it("compares digests for equality", () => {
    expect(ApiTokenSecret.constantTimeEquals("abcd", "abcd")).toBe(true)
    expect(ApiTokenSecret.constantTimeEquals("abcd", "abce")).toBe(false)
    expect(ApiTokenSecret.constantTimeEquals("abcd", "abc")).toBe(false)
  })
})
