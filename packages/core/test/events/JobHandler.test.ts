import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Random } from "effect"
import { JobHandler } from "../../src/index.js"

const policy: JobHandler.RetryPolicy = { maxAttempts: 10, backoffBase: "2 seconds", backoffCap: "1 minute", jitter: 0 }

describe("JobHandler", () => {
  it.effect("doubles the wait after each failed attempt from the base, up to the cap", () =>
    Effect.gen(function* () {
      const waits = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7, 1000], (attempts) =>
        JobHandler.backoff(policy, attempts)
      )
      expect(waits.map(Duration.toSeconds)).toEqual([2, 4, 8, 16, 32, 60, 60, 60])
    })
  )

  it.effect("shortens each wait by at most the jitter fraction, drawn from the Random service", () =>
    Effect.gen(function* () {
      const jittered = { ...policy, jitter: 0.25 }
      const waits = yield* Effect.forEach(Array.from({ length: 200 }), () => JobHandler.backoff(jittered, 3))
      const seconds = waits.map(Duration.toSeconds)
      expect(seconds.every((wait) => wait > 6 && wait <= 8)).toBe(true)
      expect(new Set(seconds).size).toBeGreaterThan(100)
      // The same seed gives the same waits: no other source of randomness is used.
      const seeded = () =>
        Effect.forEach(Array.from({ length: 5 }), () => JobHandler.backoff(jittered, 3)).pipe(
          Effect.withRandom(Random.make("seed"))
        )
      expect(yield* seeded()).toEqual(yield* seeded())
    })
  )

  it.effect("schedules the next attempt that long after the failure", () =>
    Effect.gen(function* () {
      const failedAt = DateTime.unsafeMake("2030-01-01T00:00:00Z")
      expect(yield* JobHandler.nextAttemptAt(policy, 2, failedAt)).toEqual(DateTime.unsafeMake("2030-01-01T00:00:04Z"))
    })
  )

  it("fills what a handler leaves out of its policy from the default", () => {
    const handler = JobHandler.make({ kind: "quote.expire", handle: () => Effect.void, retry: { maxAttempts: 3 } })
    expect(handler.retry).toEqual({ ...JobHandler.defaultRetryPolicy, maxAttempts: 3 })
  })
})
