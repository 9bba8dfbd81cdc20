import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer, Option, TestClock } from "effect"
import { Currency, FxRateCache, FxRates, PricingErrors, Rate } from "@payrail/core"
import { Sandbox, SandboxFxRates } from "@payrail/sandbox"

const codes = Array.from(Currency.registry.keys())
const mid = (from: string, to: string, bucket = 0) =>
  Rate.toNumber(Option.getOrThrow(SandboxFxRates.midRate(from, to, bucket)))

describe("SandboxFxRates", () => {
  it("has a plausible mid rate for every pair of registry currencies", () => {
    expect(Object.keys(SandboxFxRates.unitsPerUsd).sort()).toEqual([...codes].sort())
    for (const from of codes) {
      for (const to of codes) {
        const rate = mid(from, to)
        expect(rate, `${from}>${to}`).toBeGreaterThan(0)
        // Both directions agree to within the drift and the 12-digit rounding.
        expect(rate * mid(to, from)).toBeCloseTo(1, 9)
      }
    }
    expect(mid("USD", "USD")).toBe(1)
    expect(mid("USDC", "USD")).toBe(1)
    expect(mid("USDT", "USDC")).toBe(1)
    expect(1 / mid("USD", "MXN")).toBeGreaterThan(17)
    expect(1 / mid("USD", "MXN")).toBeLessThan(20)
    expect(mid("USD", "BTC")).toBeGreaterThan(90_000)
    expect(mid("USD", "BTC")).toBeLessThan(100_000)
    expect(mid("EUR", "USD")).toBeLessThan(1)
  })

  it("drifts each currency by at most 20 bps against the dollar per 5-minute bucket, deterministically", () => {
    const drifts = new Set<number>()
    for (const code of codes) {
      for (let bucket = 0; bucket < 50; bucket++) {
        const drift = SandboxFxRates.driftBps(code, bucket)
        expect(Math.abs(drift)).toBeLessThanOrEqual(SandboxFxRates.maxDriftBps)
        expect(SandboxFxRates.driftBps(code, bucket)).toBe(drift)
        drifts.add(drift)
      }
    }
    expect(drifts.size).toBeGreaterThan(20)
    expect(SandboxFxRates.driftBps("USDC", 7)).toBe(0)
    const base = Option.getOrThrow(Rate.fromString(SandboxFxRates.unitsPerUsd["MXN"]!))
    const moved = Math.abs(mid("MXN", "USD", 3) / Rate.toNumber(base) - 1)
    expect(moved).toBeLessThan(0.00201)
  })

  it("charges 50 bps between fiat currencies and 100 bps when crypto is involved", () => {
    expect(SandboxFxRates.spreadBps("USD", "MXN")).toBe(50)
    expect(SandboxFxRates.spreadBps("USD", "USDC")).toBe(100)
    expect(SandboxFxRates.spreadBps("BTC", "EUR")).toBe(100)
    expect(SandboxFxRates.spreadBps("EUR", "EUR")).toBe(0)
  })

  it.effect("answers through the port at Clock time, published at the start of the 5-minute bucket", () =>
    Effect.gen(function* () {
      const fx = yield* FxRates.FxRates
      yield* TestClock.setTime(7 * 60_000)
      const rate = yield* fx.rate("USD", "MXN")
      expect(rate).toMatchObject({ from: "USD", to: "MXN", spreadBps: 50 })
      expect(DateTime.toEpochMillis(rate.updatedAt)).toBe(5 * 60_000)
      expect(rate.mid).toEqual(Option.getOrThrow(SandboxFxRates.midRate("USD", "MXN", 1)))
      expect(yield* Effect.exit(fx.rate("USD", "XYZ"))).toEqual(
        Exit.fail(PricingErrors.QuoteRateUnavailable.of("USD", "XYZ"))
      )
    }).pipe(Effect.provide(Sandbox.layer))
  )

  it.effect("through the cache, a rate stays for 5 minutes and then moves", () =>
    Effect.gen(function* () {
      const cache = yield* FxRateCache.FxRateCache
      // Buckets 0 and 1 differ for USD→MXN (the drift is deterministic).
      expect(SandboxFxRates.driftBps("MXN", 0)).not.toBe(SandboxFxRates.driftBps("MXN", 1))
      const first = yield* cache.rate("USD", "MXN")
      yield* TestClock.adjust("4 minutes")
      expect(yield* cache.rate("USD", "MXN")).toBe(first)
      yield* TestClock.adjust("2 minutes")
      const next = yield* cache.rate("USD", "MXN")
      expect(Rate.equals(next.mid, first.mid)).toBe(false)
      expect(DateTime.toEpochMillis(next.updatedAt)).toBe(5 * 60_000)
    }).pipe(Effect.provide(FxRateCache.layer.pipe(Layer.provide(SandboxFxRates.layer))))
  )
})
