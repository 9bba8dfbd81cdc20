import { DateTime, Duration, Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { NewJob } from "./Job.js"
import * as JobErrors from "./JobErrors.js"
import * as JobHandler from "./JobHandler.js"
import { Jobs } from "./Jobs.js"

/**
 * The kind of the hourly purge job: it runs each retention purge it is made with (the core root's `Purges.hourly`:
 * idempotency records, expired signed-retry challenges and receiver lookups, staged document files). The kind keeps the name of its
 * first purge, since stored jobs carry it.
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

/**
 * The handler that runs `purges` in turn (each deletes what is past its retention and answers how many), then
 * schedules the next hour's run. A store failure retries the whole run; every purge is safe to repeat.
 */
export const make = <R>(
  purges: ReadonlyArray<Effect.Effect<number, StoreFailure.StoreFailure, R>>
): JobHandler.JobHandler<R | Jobs> =>
  JobHandler.make({
    kind,
    handle: () =>
      Effect.gen(function* () {
        for (const purge of purges) yield* purge
        yield* (yield* Jobs).enqueue(runOf(slotOf(yield* DateTime.now) + 1))
      }).pipe(Effect.mapError(() => JobErrors.JobFailed.retry("the store failed during the hourly purge")))
  })
