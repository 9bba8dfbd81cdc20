import {
  Array as Arr,
  Cause,
  Clock,
  DateTime,
  Duration,
  Effect,
  Exit,
  Fiber,
  FiberSet,
  Option,
  Queue,
  Schedule,
  Stream
} from "effect"
import { PlatformTime, type StoreFailure } from "../kernel/index.js"
import type { ClaimedJob, JobId } from "./Job.js"
import { JobFailed } from "./JobErrors.js"
import * as Batcher from "./internal/Batcher.js"
import * as JobHandler from "./JobHandler.js"
import { Jobs, wakeHorizon } from "./Jobs.js"

/** How a worker runs. */
export interface Options {
  /** The most handlers running at once in this worker. */
  readonly concurrency: number
  /** The most jobs claimed by one statement (default 64): claiming in batches keeps the store's cost per job low. */
  readonly batchSize?: number
  /**
   * How long a claimed job is held. A handler still running after 90% of it is interrupted and its attempt counts as
   * failed, so that the job is settled before the lease ends.
   */
  readonly lease: Duration.DurationInput
  /** How long running handlers may take to finish once the worker is interrupted; the rest are released. */
  readonly shutdownGrace: Duration.DurationInput
  /**
   * The longest an idle worker waits without looking for due work (default and at most `Jobs.wakeHorizon`, 30
   * seconds): a safety net for a missed wakeup (a listening connection that was down), and how jobs due past the
   * horizon, which stores need not signal, are found.
   */
  readonly maxIdle?: Duration.DurationInput
}

// After a claim that found nothing while work was due (rows locked by another worker's claim), wait this long
// rather than spin.
const contendedPause = Duration.millis(5)

// The part of the lease a handler may use; the rest is for settling the job.
const handlerShareOfLease = 0.9

const handlerDied = "the handler failed unexpectedly"
const leaseOverrun = "the handler did not finish within the job's lease"
const unreported = "the batch handler ended without an outcome for the job"

/**
 * Runs `handlers` over the store's due jobs until interrupted; it never fails (store failures are logged and
 * retried with backoff).
 *
 * Guarantees: at most `concurrency` handlers run at once; each claimed job is settled exactly once by this worker
 * (a settle that finds its lease lost changes nothing): done on success; on failure retried at the handler's
 * `retryAt` or its backoff after the attempt, or buried (`DEAD`) when the failure is permanent or the attempt was
 * the last its policy allows; a job of a kind no handler runs is buried. Idle, the worker sleeps (on `Clock`, so
 * `TestClock` drives it) until the earliest due time or lease end, or until `Jobs.wakeups` signals new work.
 * Interrupted, it stops claiming, lets running handlers finish within `shutdownGrace`, then interrupts the rest and
 * releases their jobs (their attempt is not counted).
 *
 * A job of a platform runs at that platform's time (`ClaimedJob.clockOffset`).
 *
 * Logs each failed attempt at Warning and each burial at Error, with the job's id, kind and attempt, and the
 * failure's message; never the payload.
 */
export const run = <R>(
  handlers: ReadonlyArray<JobHandler.JobHandler<R>>,
  options: Options
): Effect.Effect<never, never, Jobs | R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const jobs = yield* Jobs
      const byKind = new Map(handlers.map((handler) => [handler.kind, handler]))
      const concurrency = Math.max(1, Math.floor(options.concurrency))
      const batchSize = Math.max(1, Math.floor(options.batchSize ?? 64))
      const lease = Duration.decode(options.lease)
      // A handler stops before its lease ends, so that its job is settled before anyone (this worker included) may
      // claim it again.
      const handlerBudgetMillis = Duration.toMillis(Duration.times(lease, handlerShareOfLease))
      // Stores may not wake workers for jobs due past the horizon: never sleep longer than it.
      const maxIdle = Duration.min(Duration.decode(options.maxIdle ?? wakeHorizon), wakeHorizon)

      // One pending signal at most: a wakeup or a freed slot arriving while the worker is busy is kept, not lost.
      const signal = yield* Queue.sliding<void>(1)
      const poke = Queue.offer(signal, undefined)
      yield* jobs.wakeups.pipe(
        Stream.runForEach(() => poke),
        Effect.forkScoped
      )
      // The listening fiber subscribes when it first runs: let it, so no wakeup between the first claim and its
      // subscription is missed.
      yield* Effect.yieldNow()

      // Successful jobs are completed in batches: one statement for all the jobs that finished while the previous
      // one ran (two at a time), instead of one per job. The batcher outlives the handlers (closed after the set
      // below).
      const complete = yield* Batcher.make(
        (batch: ReadonlyArray<ClaimedJob>) =>
          Effect.map(jobs.completeAll(batch), (ids) => {
            const completed = new Set(ids)
            return batch.map((claimed) => completed.has(claimed.job.id))
          }),
        { maxBatchSize: batchSize, concurrency: 2 }
      )

      const running = yield* FiberSet.make<void, never>()
      // Finalizers run in reverse: this one, added after the set, waits for running handlers before the set's own
      // finalizer interrupts what is left (whose jobs are then released).
      // A finalizer runs uninterruptibly: the wait is made interruptible so that the timeout can end it.
      yield* Effect.addFinalizer(() =>
        FiberSet.awaitEmpty(running).pipe(Effect.interruptible, Effect.timeout(options.shutdownGrace), Effect.ignore)
      )
      let inFlight = 0

      const settled = (claimed: ClaimedJob, outcome: string) => (held: boolean) =>
        held
          ? Effect.void
          : Effect.logWarning(`job lease lost before it was ${outcome}`).pipe(
              Effect.annotateLogs({ jobId: claimed.job.id, kind: claimed.job.kind })
            )

      const failed = (
        claimed: ClaimedJob,
        policy: JobHandler.RetryPolicy,
        failure: JobFailed
      ): Effect.Effect<void, StoreFailure.StoreFailure> =>
        Effect.gen(function* () {
          const { job } = claimed
          const annotations = { jobId: job.id, kind: job.kind, attempt: job.attempts, error: failure.message }
          if (failure.permanent || job.attempts >= policy.maxAttempts) {
            yield* Effect.logError("job failed for the last time and is dead").pipe(Effect.annotateLogs(annotations))
            return yield* Effect.flatMap(jobs.bury(claimed, failure.message), settled(claimed, "buried"))
          }
          const dueAt = failure.retryAt ?? (yield* JobHandler.nextAttemptAt(policy, job.attempts, yield* DateTime.now))
          yield* Effect.logWarning("job failed and will be retried").pipe(
            Effect.annotateLogs({ ...annotations, retryAt: DateTime.formatIso(dueAt) })
          )
          return yield* Effect.flatMap(
            jobs.retry(claimed, { dueAt, error: failure.message }),
            settled(claimed, "retried")
          )
        })

      const settle = (
        claimed: ClaimedJob,
        policy: JobHandler.RetryPolicy,
        exit: Exit.Exit<void, JobFailed>
      ): Effect.Effect<void, StoreFailure.StoreFailure> => {
        if (Exit.isSuccess(exit)) return Effect.flatMap(complete(claimed), settled(claimed, "completed"))
        if (Cause.isInterruptedOnly(exit.cause)) {
          return Effect.flatMap(jobs.release(claimed), settled(claimed, "released"))
        }
        return Option.match(Cause.failureOption(exit.cause), {
          onSome: (failure) => failed(claimed, policy, failure),
          onNone: () =>
            Effect.logDebug("job handler died", exit.cause).pipe(
              Effect.zipRight(failed(claimed, policy, JobFailed.retry(handlerDied)))
            )
        })
      }

      // The lease budget of running handlers is kept by one watchdog fiber rather than a timeout (two fibers and a
      // timer) per job: it sleeps until the oldest handler's deadline (handlers start in deadline order, the budget
      // being the same for all) and interrupts the handlers past theirs, marking them so that their attempt counts
      // as failed rather than released. Deadlines are on this worker's clock, read when the job was claimed.
      const budgets = new Map<JobId, { readonly deadlineMillis: number; readonly fiber: Fiber.RuntimeFiber<void> }>()
      const overran = new Set<JobId>()
      const budgetStarted = yield* Queue.sliding<void>(1)
      yield* Effect.gen(function* () {
        const oldest = budgets.entries().next()
        if (oldest.done === true) return yield* Queue.take(budgetStarted)
        const [id, { deadlineMillis, fiber }] = oldest.value
        const now = yield* Clock.currentTimeMillis
        if (deadlineMillis > now) return yield* Effect.sleep(Duration.millis(deadlineMillis - now))
        budgets.delete(id)
        overran.add(id)
        yield* Fiber.interruptFork(fiber)
      }).pipe(Effect.forever, Effect.forkScoped)

      // Runs one claimed job to its settlement. The settlement itself cannot be interrupted, so a job whose handler
      // is interrupted (shutdown) is always released.
      const execute = (claimed: ClaimedJob, deadlineMillis: number): Effect.Effect<void, never, R> =>
        Effect.uninterruptibleMask((restore) => {
          const { id, kind } = claimed.job
          const handler = byKind.get(kind)
          if (handler === undefined) {
            return failed(
              claimed,
              JobHandler.defaultRetryPolicy,
              JobFailed.permanent(`no handler runs jobs of kind "${kind}"`)
            )
          }
          return Effect.withFiberRuntime<void>((fiber) => {
            if (budgets.size === 0) budgetStarted.unsafeOffer(undefined)
            budgets.set(id, { deadlineMillis, fiber })
            return Effect.void
          }).pipe(
            Effect.zipRight(restore(handler.handle(claimed.job))),
            Effect.exit,
            Effect.flatMap((exit) => {
              budgets.delete(id)
              // Interrupted by the watchdog (and by nothing else): the attempt failed for taking too long.
              const outcome =
                Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause) && overran.has(id)
                  ? Exit.fail(JobFailed.retry(leaseOverrun))
                  : exit
              return settle(claimed, handler.retry, outcome)
            })
          )
        }).pipe(
          // The job and its settlement run at its platform's time: what it records, and the retry time it computes.
          PlatformTime.within(claimed.clockOffset),
          Effect.catchAll((failure) =>
            Effect.logWarning("could not settle a job; it runs again once its lease ends", failure).pipe(
              Effect.annotateLogs({ jobId: claimed.job.id, kind: claimed.job.kind })
            )
          ),
          Effect.ensuring(
            Effect.zipRight(
              Effect.sync(() => {
                inFlight--
                budgets.delete(claimed.job.id)
                overran.delete(claimed.job.id)
              }),
              poke
            )
          )
        )

      // Settles the jobs of a batch that `report` got, at once: the successful ones in one statement, the others one
      // by one as `settle` does. Never fails (a store failure is logged: the jobs run again once their leases end).
      const settleBatch = (
        policy: JobHandler.RetryPolicy,
        outcomes: ReadonlyArray<readonly [ClaimedJob, Exit.Exit<void, JobFailed>]>
      ): Effect.Effect<void> => {
        const succeeded = outcomes.flatMap(([claimed, exit]) => (Exit.isSuccess(exit) ? [claimed] : []))
        const completeSucceeded =
          succeeded.length === 0
            ? Effect.void
            : Effect.flatMap(jobs.completeAll(succeeded), (ids) => {
                const completed = new Set(ids)
                return Effect.forEach(
                  succeeded.filter((claimed) => !completed.has(claimed.job.id)),
                  (claimed) => settled(claimed, "completed")(false),
                  { discard: true }
                )
              }).pipe(
                Effect.catchAll((failure) =>
                  Effect.logWarning("could not settle a batch of jobs; they run again once their leases end", failure)
                )
              )
        return Effect.zipRight(
          completeSucceeded,
          Effect.forEach(
            outcomes.filter(([, exit]) => Exit.isFailure(exit)),
            ([claimed, exit]) =>
              settle(claimed, policy, exit).pipe(
                Effect.catchAll((failure) =>
                  Effect.logWarning("could not settle a job; it runs again once its lease ends", failure).pipe(
                    Effect.annotateLogs({ jobId: claimed.job.id, kind: claimed.job.kind })
                  )
                )
              ),
            { discard: true }
          )
        )
      }

      // Runs jobs of one kind and one platform time as one batch (`JobHandler.handleBatch`), in one fiber: each job
      // is settled and its slot freed when the handler reports it; the jobs it never reported are settled when it
      // ends, as `execute` settles a job whose handler ended the same way. The lease budget is the whole batch's.
      const executeBatch = (
        handleBatch: NonNullable<JobHandler.JobHandler<R>["handleBatch"]>,
        policy: JobHandler.RetryPolicy,
        batch: Arr.NonEmptyReadonlyArray<ClaimedJob>,
        deadlineMillis: number
      ): Effect.Effect<void, never, R> => {
        const budgetId = batch[0].job.id
        const open = new Set(batch.map((_, index) => index))
        const report = (outcomes: ReadonlyArray<JobHandler.BatchOutcome>): Effect.Effect<void> =>
          Effect.uninterruptible(
            Effect.suspend(() => {
              const fresh = outcomes.flatMap(({ exit, index }) => {
                const claimed = batch[index]
                return claimed !== undefined && open.delete(index) ? [[claimed, exit] as const] : []
              })
              if (fresh.length === 0) return Effect.void
              return settleBatch(policy, fresh).pipe(
                Effect.ensuring(
                  Effect.zipRight(
                    Effect.sync(() => {
                      inFlight -= fresh.length
                    }),
                    poke
                  )
                )
              )
            })
          )
        return Effect.uninterruptibleMask((restore) =>
          Effect.withFiberRuntime<void>((fiber) => {
            if (budgets.size === 0) budgetStarted.unsafeOffer(undefined)
            budgets.set(budgetId, { deadlineMillis, fiber })
            return Effect.void
          }).pipe(
            Effect.zipRight(
              restore(
                handleBatch(
                  Arr.map(batch, (claimed) => claimed.job),
                  report
                )
              )
            ),
            Effect.exit,
            Effect.flatMap((exit) => {
              budgets.delete(budgetId)
              // Usually every job was reported: no outcome (an error, with its stack) is built for none.
              if (open.size === 0) return Effect.void
              const outcome: Exit.Exit<void, JobFailed> = Exit.isSuccess(exit)
                ? Exit.fail(JobFailed.retry(unreported))
                : Cause.isInterruptedOnly(exit.cause) && overran.has(budgetId)
                  ? Exit.fail(JobFailed.retry(leaseOverrun))
                  : exit
              return report([...open].map((index) => ({ index, exit: outcome })))
            })
          )
        ).pipe(
          PlatformTime.within(batch[0].clockOffset),
          Effect.ensuring(
            Effect.sync(() => {
              budgets.delete(budgetId)
              overran.delete(budgetId)
            })
          )
        )
      }

      // While a backlog lasts (the last claim got all it asked for), a worker claims once half its slots (or half a
      // batch) are free rather than for each slot that frees: a claim, and the statements of the batch it starts,
      // cost the store and this process about as much for one job as for 64, so claims and batches stay large under
      // load (an eighth was 0.3 statements per webhook delivery, a half 0.12, with 128 slots). Without a backlog any
      // free slot is filled at once.
      const backlogThreshold = Math.max(1, Math.floor(Math.min(batchSize, concurrency) / 2))
      let backlog = false
      const claimThreshold = () => (backlog ? backlogThreshold : 1)

      // Claims what fits in the free slots and starts it; answers how many were claimed of how many asked.
      const claimDue = Effect.gen(function* () {
        const limit = Math.min(batchSize, concurrency - inFlight)
        if (limit < claimThreshold()) return { claimed: 0, limit: 0 }
        const now = yield* DateTime.now
        const claimed = yield* jobs.claim({ limit, now, lease })
        backlog = claimed.length === limit
        const deadlineMillis = DateTime.toEpochMillis(now) + handlerBudgetMillis
        // The jobs of a kind that runs in batches go in one batch per platform time; the others a fiber each.
        const batches = new Map<
          string,
          {
            readonly handleBatch: NonNullable<JobHandler.JobHandler<R>["handleBatch"]>
            readonly retry: JobHandler.RetryPolicy
            readonly jobs: Arr.NonEmptyArray<ClaimedJob>
          }
        >()
        for (const job of claimed) {
          inFlight++
          const handler = byKind.get(job.job.kind)
          if (handler?.handleBatch === undefined) {
            yield* FiberSet.run(running, execute(job, deadlineMillis))
            continue
          }
          const key = `${Duration.toMillis(job.clockOffset)} ${job.job.kind}`
          const batch = batches.get(key)
          if (batch === undefined)
            batches.set(key, { handleBatch: handler.handleBatch, retry: handler.retry, jobs: [job] })
          else batch.jobs.push(job)
        }
        for (const { handleBatch, retry, jobs: batch } of batches.values()) {
          yield* FiberSet.run(running, executeBatch(handleBatch, retry, batch, deadlineMillis))
        }
        return { claimed: claimed.length, limit }
      })

      // Waits for a signal, or for the next due time (capped by `maxIdle`).
      const idle = (claimed: number) =>
        Effect.gen(function* () {
          // Running handlers signal as each ends: wait for enough free slots before asking the store again.
          if (concurrency - inFlight < claimThreshold()) return yield* Queue.take(signal)
          const nextDueAt = yield* jobs.nextDueAt
          const now = yield* DateTime.now
          const untilDue = Option.match(nextDueAt, {
            onNone: () => maxIdle,
            onSome: (dueAt) =>
              DateTime.lessThanOrEqualTo(dueAt, now)
                ? claimed === 0
                  ? contendedPause
                  : Duration.zero
                : Duration.min(DateTime.distanceDuration(now, dueAt), maxIdle)
          })
          if (Duration.isZero(untilDue)) return
          yield* Effect.raceFirst(Queue.take(signal), Effect.sleep(untilDue))
        })

      const step = Effect.flatMap(claimDue, ({ claimed, limit }) =>
        claimed === limit && limit > 0 ? Effect.yieldNow() : idle(claimed)
      )

      return yield* step.pipe(
        Effect.tapError((failure) => Effect.logWarning("the job worker could not reach the store", failure)),
        // The schedule never ends, so the retry never fails: `orDie` only narrows the type.
        Effect.retry(Schedule.exponential(Duration.millis(100)).pipe(Schedule.union(Schedule.spaced("5 seconds")))),
        Effect.orDie,
        Effect.forever
      )
    })
  )
