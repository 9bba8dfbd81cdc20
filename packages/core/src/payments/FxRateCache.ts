import { Cache, Context, Data, DateTime, Duration, Effect, Exit, Layer } from "effect"
import { PlatformTime } from "../kernel/index.js"
import { type FxRate, FxRates } from "./FxRates.js"
import type { QuoteRateUnavailable } from "./PricingErrors.js"
import * as Rate from "./Rate.js"

/** How long a pair's rate is reused before the provider is asked again: 5 minutes. */
export const timeToLive: Duration.Duration = Duration.minutes(5)

/** The most pairs kept (per clock offset; see `FxRateCache`); beyond it the least recently used goes first. */
export const capacity = 10_000

/**
 * Exchange rates as pricing reads them: the provider's (`FxRates`) rate of each pair, kept for `timeToLive` (measured
 * on `Clock`, so a `TestClock` drives it), and the rate one with no spread for the same currency on both sides, which
 * never reaches the provider. A failure is not kept: the next call asks again. Concurrent calls for one pair share one
 * provider call. Sandbox platforms whose clock was advanced run at another time than the rest: their rates are kept
 * apart, by clock offset, so each platform sees rates of its own time.
 */
export class FxRateCache extends Context.Tag("@payrail/core/FxRateCache")<
  FxRateCache,
  {
    readonly rate: (from: string, to: string) => Effect.Effect<FxRate, QuoteRateUnavailable>
  }
>() {}

/** The rate of a currency to itself: one, with no spread, as of now. */
export const sameCurrency = (code: string): Effect.Effect<FxRate> =>
  Effect.map(DateTime.now, (updatedAt) => ({ from: code, to: code, mid: Rate.one, spreadBps: 0, updatedAt }))

/** A pair at a clock offset; compared by value, so equal keys share an entry. */
interface Key {
  readonly from: string
  readonly to: string
  readonly offsetMillis: number
}

/** `FxRateCache` over the provider in context. */
export const layer: Layer.Layer<FxRateCache, never, FxRates> = Layer.effect(
  FxRateCache,
  Effect.gen(function* () {
    const provider = yield* FxRates
    const cache = yield* Cache.makeWith({
      capacity,
      // The cache runs a lookup in its own context, where a clock that reads the caller's offset from the request
      // (`SandboxClock.callerClock`) finds none: the provider is asked at the key's offset explicitly.
      lookup: (key: Key) =>
        Effect.flatMap(PlatformTime.offset, (seen) => {
          const missingMillis = key.offsetMillis - Duration.toMillis(seen)
          const rate = provider.rate(key.from, key.to)
          return missingMillis > 0 ? PlatformTime.within(Duration.millis(missingMillis))(rate) : rate
        }),
      timeToLive: Exit.match({ onFailure: () => Duration.zero, onSuccess: () => timeToLive })
    })
    return {
      rate: (from, to) =>
        from === to
          ? sameCurrency(from)
          : Effect.flatMap(PlatformTime.offset, (offset) =>
              cache.get(Data.struct<Key>({ from, to, offsetMillis: Duration.toMillis(offset) }))
            )
    }
  })
)
