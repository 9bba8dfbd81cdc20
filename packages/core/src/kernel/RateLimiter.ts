import { Context, type Effect } from "effect"
import type { Admission, RateLimit } from "./RateLimit.js"
import type { StoreFailure } from "./StoreFailure.js"

/**
 * Counts events per key against a `RateLimit` in the store, so that every server instance sharing the store shares
 * the count (memory: one process; PostgreSQL and PGlite: the `rate_limits` table, one statement per event). Time is
 * the caller's `Clock`. Each `consume` is atomic: of N concurrent events on one key at rest, exactly
 * `min(N, burst)` are admitted. Keys are at most 256 characters without NUL; a key at rest may be forgotten.
 */
export class RateLimiter extends Context.Tag("@payrail/core/RateLimiter")<
  RateLimiter,
  {
    /** Records one event on `key` and tells whether `limit` admits it; a refused event is not counted. */
    readonly consume: (key: string, limit: RateLimit) => Effect.Effect<Admission, StoreFailure>
  }
>() {}
