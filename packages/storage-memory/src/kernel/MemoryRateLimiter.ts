import { Clock, Effect, Layer } from "effect"
import { RateLimiter, RateLimitTable } from "@payrail/core"

/** The most keys kept; beyond it the longest unused is forgotten (a key at rest loses nothing). */
const capacity = 100_000

/**
 * `RateLimiter` in this process: one `RateLimitTable` per built layer, shared by everything using that store.
 * Each `consume` is one synchronous step, so concurrent events on a key are counted exactly. Outside any unit of
 * work: a rolled-back unit of work does not give its events back.
 */
export const layer: Layer.Layer<RateLimiter.RateLimiter> = Layer.sync(RateLimiter.RateLimiter, () => {
  const table = RateLimitTable.make(capacity)
  return {
    consume: (key, limit) => Effect.map(Clock.currentTimeMillis, (now) => table.consume(key, limit, now))
  }
})
