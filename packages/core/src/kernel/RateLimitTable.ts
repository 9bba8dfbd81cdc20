import { type Admission, type RateLimit, step } from "./RateLimit.js"

/**
 * Rate-limit state of many keys inside this process: the memory store's `RateLimiter` and the per-token request
 * limit use it. Synchronous on purpose: it is read on every authenticated request, and JavaScript runs one fiber at
 * a time, so each `consume` is atomic. At most `capacity` keys are kept; beyond it the longest unused goes first
 * (which can only admit more, never refuse a key at rest).
 */
export interface RateLimitTable {
  readonly consume: (key: string, limit: RateLimit, nowMillis: number) => Admission
}

export const make = (capacity: number): RateLimitTable => {
  const arrivals = new Map<string, number>()
  return {
    consume: (key, limit, nowMillis) => {
      const stored = arrivals.get(key)
      const next = step(limit, stored, nowMillis)
      // Re-inserting keeps the map in order of last use, so the first key is the one to evict.
      arrivals.delete(key)
      if (arrivals.size >= capacity) {
        const oldest = arrivals.keys().next()
        if (oldest.done !== true) arrivals.delete(oldest.value)
      }
      arrivals.set(key, next.tat)
      return next.admission
    }
  }
}
