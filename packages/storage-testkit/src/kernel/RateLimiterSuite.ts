import { expect } from "@effect/vitest"
import { Effect, TestClock, TestContext } from "effect"
import { RateLimit, RateLimiter } from "@payrail/core"
import type { Methods } from "../internal/Methods.js"

const freshKey = () => `conformance:${globalThis.crypto.randomUUID()}`

// 3 at once, then one more every second.
const limit: RateLimit.RateLimit = { name: "conformance", burst: 3, intervalMillis: 1000 }

const consumeTimes = (key: string, times: number, of: RateLimit.RateLimit = limit) =>
  Effect.flatMap(RateLimiter.RateLimiter, (limiter) =>
    Effect.forEach(Array.from({ length: times }), () => limiter.consume(key, of))
  )

// The storage layers run on the live clock; each case runs on a `TestClock` of its own.
const onTestClock = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, TestContext.TestContext)

const admitted = { admitted: true }
const refusedFor = (retryAfterMillis: number) => ({ admitted: false, retryAfterMillis })

/**
 * The rate limiter (GCRA, time from the `Clock`, driven here by `TestClock`): a burst at once, then one event per
 * interval; refused events are not counted; keys are apart; concurrent events are counted exactly.
 */
export const register = (it: Methods) => {
  it.effect("admits the burst at once, refuses the next with the wait until one more is admitted, then admits it", () =>
    Effect.gen(function* () {
      const key = freshKey()
      expect(yield* consumeTimes(key, 4)).toEqual([admitted, admitted, admitted, refusedFor(1000)])
      yield* TestClock.adjust("999 millis")
      expect(yield* consumeTimes(key, 1)).toEqual([refusedFor(1)])
      yield* TestClock.adjust("1 millis")
      expect(yield* consumeTimes(key, 2)).toEqual([admitted, refusedFor(1000)])
    }).pipe(onTestClock)
  )

  it.effect("does not count refused events: knocking during the wait does not lengthen it", () =>
    Effect.gen(function* () {
      const key = freshKey()
      yield* consumeTimes(key, 3)
      for (let knock = 0; knock < 5; knock++) {
        expect(yield* consumeTimes(key, 1)).toEqual([refusedFor(1000 - knock * 100)])
        yield* TestClock.adjust("100 millis")
      }
      yield* TestClock.adjust("500 millis")
      expect(yield* consumeTimes(key, 2)).toEqual([admitted, refusedFor(1000)])
    }).pipe(onTestClock)
  )

  it.effect("admits a whole burst again once the key has rested burst times the interval", () =>
    Effect.gen(function* () {
      const key = freshKey()
      yield* consumeTimes(key, 3)
      yield* TestClock.adjust("3 seconds")
      expect(yield* consumeTimes(key, 4)).toEqual([admitted, admitted, admitted, refusedFor(1000)])
    }).pipe(onTestClock)
  )

  it.effect("counts each key apart", () =>
    Effect.gen(function* () {
      const first = freshKey()
      const second = freshKey()
      yield* consumeTimes(first, 3)
      expect(yield* consumeTimes(first, 1)).toEqual([refusedFor(1000)])
      expect(yield* consumeTimes(second, 3)).toEqual([admitted, admitted, admitted])
    }).pipe(onTestClock)
  )

  it.effect("applies the limit it is given: one per minute refuses the second event for a minute", () =>
    Effect.gen(function* () {
      const key = freshKey()
      const perMinute = RateLimit.perMinute("one_per_minute", 1)
      expect(yield* consumeTimes(key, 2, perMinute)).toEqual([admitted, refusedFor(60_000)])
    }).pipe(onTestClock)
  )

  it.effect("admits exactly the burst of 25 concurrent events on one key", () =>
    Effect.gen(function* () {
      const key = freshKey()
      const limiter = yield* RateLimiter.RateLimiter
      const burstOfFive = { name: "conformance", burst: 5, intervalMillis: 60_000 }
      const outcomes = yield* Effect.all(
        Array.from({ length: 25 }, () => limiter.consume(key, burstOfFive)),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((outcome) => outcome.admitted)).toHaveLength(5)
    }).pipe(onTestClock)
  )
}
