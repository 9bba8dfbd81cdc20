import { describe, expect, it } from "@effect/vitest"
import { Clock, DateTime, Effect, Exit, Layer, Option, Ref, TestClock } from "effect"
import {
  ApiToken,
  Caller,
  FxRateCache,
  FxRates,
  Platform,
  Platforms,
  PlatformTime,
  PricingErrors,
  Rate,
  SandboxClock
} from "@payrail/core"

const read = (text: string) => Option.getOrThrow(Rate.fromString(text))

/** A provider whose USD→MXN mid is 0.05 plus a millionth per minute of clock time; counts its calls; fails once asked to. */
const provider = (calls: Ref.Ref<number>, failNext: Ref.Ref<boolean>) =>
  Layer.succeed(FxRates.FxRates, {
    rate: (from, to) =>
      Effect.gen(function* () {
        yield* Ref.update(calls, (n) => n + 1)
        if (yield* Ref.getAndSet(failNext, false)) return yield* PricingErrors.QuoteRateUnavailable.of(from, to)
        const now = yield* Clock.currentTimeMillis
        const minutes = Math.floor(now / 60_000)
        return {
          from,
          to,
          mid: Rate.fromFraction(BigInt(50_000 + minutes), 1_000_000n, 12),
          spreadBps: 50,
          updatedAt: DateTime.unsafeMake(now)
        }
      })
  })

const setup = Effect.gen(function* () {
  const calls = yield* Ref.make(0)
  const failNext = yield* Ref.make(false)
  const cache = yield* Effect.provide(
    FxRateCache.FxRateCache,
    FxRateCache.layer.pipe(Layer.provide(provider(calls, failNext)))
  )
  return { cache, calls, failNext }
})

describe("FxRateCache", () => {
  it.effect("asks the provider once per pair for 5 minutes of Clock time, then again", () =>
    Effect.gen(function* () {
      const { cache, calls } = yield* setup
      const first = yield* cache.rate("USD", "MXN")
      yield* TestClock.adjust("4 minutes")
      expect(yield* cache.rate("USD", "MXN")).toBe(first)
      expect(yield* Ref.get(calls)).toBe(1)
      yield* cache.rate("USD", "EUR")
      expect(yield* Ref.get(calls)).toBe(2)
      yield* TestClock.adjust("61 seconds")
      const later = yield* cache.rate("USD", "MXN")
      expect(yield* Ref.get(calls)).toBe(3)
      expect(Rate.format(first.mid)).toBe("0.05")
      expect(Rate.format(later.mid)).toBe("0.050005")
    })
  )

  it.effect("shares one provider call among concurrent callers of a pair", () =>
    Effect.gen(function* () {
      const { cache, calls } = yield* setup
      yield* Effect.all(
        Array.from({ length: 20 }, () => cache.rate("USD", "BRL")),
        { concurrency: "unbounded" }
      )
      expect(yield* Ref.get(calls)).toBe(1)
    })
  )

  it.effect("answers the same currency with rate one and no spread, without the provider", () =>
    Effect.gen(function* () {
      const { cache, calls } = yield* setup
      yield* TestClock.setTime(1_000)
      const same = yield* cache.rate("USD", "USD")
      expect(same).toEqual({
        from: "USD",
        to: "USD",
        mid: Rate.one,
        spreadBps: 0,
        updatedAt: DateTime.unsafeMake(1_000)
      })
      expect(FxRates.applied(same)).toEqual(Rate.one)
      expect(yield* Ref.get(calls)).toBe(0)
    })
  )

  it.effect("keeps no failure: the next call asks again", () =>
    Effect.gen(function* () {
      const { cache, calls, failNext } = yield* setup
      yield* Ref.set(failNext, true)
      expect(yield* Effect.exit(cache.rate("USD", "MXN"))).toEqual(
        Exit.fail(PricingErrors.QuoteRateUnavailable.of("USD", "MXN"))
      )
      yield* TestClock.adjust("1 millis")
      expect(Rate.format((yield* cache.rate("USD", "MXN")).mid)).toBe("0.05")
      expect(yield* Ref.get(calls)).toBe(2)
    })
  )

  it.effect("keeps the rates of a platform whose clock runs ahead apart, at its own time", () =>
    Effect.gen(function* () {
      const { cache, calls } = yield* setup
      const now = yield* cache.rate("USD", "MXN")
      const ahead = yield* cache.rate("USD", "MXN").pipe(PlatformTime.within("1 hour"))
      expect(yield* Ref.get(calls)).toBe(2)
      expect(Rate.format(now.mid)).toBe("0.05")
      expect(Rate.format(ahead.mid)).toBe("0.05006")
      expect(DateTime.toEpochMillis(ahead.updatedAt)).toBe(3_600_000)
      expect(yield* cache.rate("USD", "MXN").pipe(PlatformTime.within("1 hour"))).toBe(ahead)
      expect(yield* Ref.get(calls)).toBe(2)
    })
  )
})

/** A caller whose sandbox platform runs `clockOffsetSeconds` ahead. */
const callerAhead = (clockOffsetSeconds: number): Caller.Caller => {
  const platform = new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "Ahead",
    environment: "SANDBOX",
    config: Platforms.defaultConfig,
    clockOffsetSeconds,
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })
  return {
    platform,
    token: new ApiToken.ApiToken({
      id: ApiToken.ApiTokenId.make("ApiToken:00000000-0000-4000-8000-000000000002"),
      platformId: platform.id,
      name: "test",
      clientId: "pk_test",
      secretHash: "a".repeat(64),
      permissions: ["VIEW"],
      createdAt: DateTime.unsafeMake(0)
    })
  }
}

describe("FxRateCache under a request's clock", () => {
  it.effect("asks the provider at the caller's platform time, which the request's clock reads from its caller", () =>
    Effect.gen(function* () {
      const { cache, calls } = yield* setup
      const ahead = yield* cache
        .rate("USD", "MXN")
        .pipe(Effect.provideService(Caller.CurrentCaller, callerAhead(3_600)), SandboxClock.withCallerTime)
      expect(Rate.format(ahead.mid)).toBe("0.05006")
      const now = yield* cache.rate("USD", "MXN").pipe(SandboxClock.withCallerTime)
      expect(Rate.format(now.mid)).toBe("0.05")
      expect(yield* Ref.get(calls)).toBe(2)
    })
  )
})

describe("FxRates.applied", () => {
  it("adds the spread to the mid rate and rounds up to 12 significant digits", () => {
    const fx = (mid: string, spreadBps: number): FxRates.FxRate => ({
      from: "USD",
      to: "MXN",
      mid: read(mid),
      spreadBps,
      updatedAt: DateTime.unsafeMake(0)
    })
    expect(Rate.format(FxRates.applied(fx("0.05", 50)))).toBe("0.05025")
    expect(Rate.format(FxRates.applied(fx("0.0543478260870", 50)))).toBe("0.0546195652175")
    // 0.0543478260869 × 1.005 = 0.0546195652173345: rounded up, never down.
    expect(Rate.format(FxRates.applied(fx("0.0543478260869", 50)))).toBe("0.0546195652174")
    expect(FxRates.applied(fx("1", 0))).toEqual(Rate.one)
  })
})
