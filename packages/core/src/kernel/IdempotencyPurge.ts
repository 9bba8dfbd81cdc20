import { DateTime, Duration, Effect } from "effect"
import type { StoreFailure } from "./StoreFailure.js"
import { IdempotencyKeys } from "./IdempotencyKeys.js"

/** How long a stored `Idempotency-Key` is kept at least: 24 hours, Stripe's figure. */
export const retention: Duration.Duration = Duration.hours(24)

/**
 * Deletes the idempotency records claimed more than `retention` ago (time from `Clock`), of every platform, and
 * answers how many it deleted: the work of the periodic purge job. Running it more often than needed is harmless;
 * a record younger than `retention` is never deleted.
 */
export const purge: Effect.Effect<number, StoreFailure, IdempotencyKeys> = Effect.gen(function* () {
  const keys = yield* IdempotencyKeys
  const now = yield* DateTime.now
  return yield* keys.purgeOlderThan(DateTime.subtractDuration(now, retention))
}).pipe(Effect.withSpan("IdempotencyPurge.purge"))
