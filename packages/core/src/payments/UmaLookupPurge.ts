import { DateTime, Duration, Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import { UmaLookupRepo } from "./UmaLookupRepo.js"

/** How long an expired receiver lookup is kept: an hour, so a late quote is told it expired, not that it is unknown. */
export const retention: Duration.Duration = Duration.hours(1)

/** Deletes at most this many lookups per statement. */
export const batchSize = 1000

/**
 * Deletes the receiver lookups that expired more than `retention` ago (time from `Clock`), of every platform, in
 * batches, and answers how many it deleted: run by the hourly purge job. A lookup a quote can still use is never
 * deleted.
 */
export const purge: Effect.Effect<number, StoreFailure.StoreFailure, UmaLookupRepo> = Effect.gen(function* () {
  const lookups = yield* UmaLookupRepo
  const before = DateTime.subtractDuration(yield* DateTime.now, retention)
  let total = 0
  for (;;) {
    const deleted = yield* lookups.purgeExpired(before, batchSize)
    total += deleted
    if (deleted < batchSize) return total
  }
}).pipe(Effect.withSpan("UmaLookupPurge.purge"))
