import { DateTime, Duration, Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import { SignedRequestRepo } from "./SignedRequestRepo.js"

/** How long an expired signed-retry challenge is kept: an hour, so a late retry is told it expired, not unknown. */
export const retention: Duration.Duration = Duration.hours(1)

/** Deletes at most this many challenges per statement. */
export const batchSize = 1000

/**
 * Deletes the signed-retry challenges that expired more than `retention` ago (time from `Clock`), of every
 * platform, in batches, and answers how many it deleted: run by the hourly purge job. A challenge that can still be
 * answered is never deleted.
 */
export const purge: Effect.Effect<number, StoreFailure.StoreFailure, SignedRequestRepo> = Effect.gen(function* () {
  const requests = yield* SignedRequestRepo
  const before = DateTime.subtractDuration(yield* DateTime.now, retention)
  let total = 0
  for (;;) {
    const deleted = yield* requests.purgeExpired(before, batchSize)
    total += deleted
    if (deleted < batchSize) return total
  }
}).pipe(Effect.withSpan("SignedRequestPurge.purge"))
