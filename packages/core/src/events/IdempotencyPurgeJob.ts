import { DateTime, Duration, Effect } from "effect"
import { IdempotencyPurge, type StoreFailure } from "../kernel/index.js"
import { SignedRequestPurge } from "../wallets/index.js"
import { DocumentFilePurge } from "../verification/index.js"
import type { NewJob } from "./Job.js"
import * as JobErrors from "./JobErrors.js"
import * as JobHandler from "./JobHandler.js"
import { Jobs } from "./Jobs.js"

/**
 * The kind of the hourly purge job: it deletes idempotency records past their retention (`IdempotencyPurge`) and
 * expired signed-retry challenges (`SignedRequestPurge`) and staged document files never attached
 * (`DocumentFilePurge`).
 */
export const kind = "idempotency.purge"

/** How often the purge runs: each run enqueues the next one, at the start of the next hour. */
export const interval: Duration.Duration = Duration.hours(1)

const intervalMillis = Duration.toMillis(interval)
const slotOf = (at: DateTime.Utc): number => Math.floor(DateTime.toEpochMillis(at) / intervalMillis)

// The run of one hour, due at its start. The key names the hour, so every server instance that schedules the same
// hour adds one job between them.
const runOf = (slot: number): NewJob => ({
  kind,
  payload: {},
  dueAt: DateTime.unsafeMake(slot * intervalMillis),
  deduplicationKey: `${kind}:${slot}`
})

/**
 * Makes sure a purge is scheduled: enqueues the run of the current hour (due at once). Called when a worker
 * starts; calling it again, from any instance, adds nothing while that run waits, and at most a harmless second run
 * once it is done.
 */
export const schedule: Effect.Effect<void, StoreFailure.StoreFailure, Jobs> = Effect.gen(function* () {
  yield* (yield* Jobs).enqueue(runOf(slotOf(yield* DateTime.now)))
})

/** Purges the records past their retention, then schedules the next hour's run. */
export const handler = JobHandler.make({
  kind,
  handle: () =>
    Effect.gen(function* () {
      yield* IdempotencyPurge.purge
      yield* SignedRequestPurge.purge
      yield* DocumentFilePurge.purge
      yield* (yield* Jobs).enqueue(runOf(slotOf(yield* DateTime.now) + 1))
    }).pipe(Effect.mapError(() => JobErrors.JobFailed.retry("the store failed during the idempotency purge")))
})
