import { Context, type DateTime, Duration, type Effect, type Option, type Stream } from "effect"
import type { PlatformId, StoreFailure } from "../kernel/index.js"
import type { ClaimedJob, Job, JobId, NewJob } from "./Job.js"

/**
 * How far ahead a store must wake workers for: an enqueue of a job due within this (real time) signals `wakeups`;
 * one due later may not, so an idle worker never waits longer than this before reading `nextDueAt` again.
 */
export const wakeHorizon: Duration.Duration = Duration.seconds(30)

/**
 * Durable jobs in the store. `enqueue` inside `UnitOfWork.transaction` commits the job with the change that causes
 * it, so a job exists only if its change committed.
 *
 * Time: the due time of a job of a platform (`platformId`) is in that platform's time (what its requests and jobs
 * read from `Clock`); stores convert it to real time with the platform's clock offset as the store has it when the
 * job is written, in the same step, so a caller that read the offset before a concurrent advance still schedules
 * right. Other due times are in the caller's clock's time, converted with its offset (`PlatformTime.toRealTime`).
 * `claim`, `nextDueAt` and the jobs they answer speak real time; `shiftPlatform` keeps a platform's waiting jobs in
 * step with its clock.
 *
 * Concurrency: `claim` hands each due job to exactly one caller at a time (`FOR UPDATE SKIP LOCKED` on SQL adapters),
 * also across processes sharing the store; a lease that runs out makes the job claimable again, so a worker that
 * dies mid-job loses it to another and handlers must be idempotent. Settling (`complete`, `retry`, `bury`,
 * `release`) succeeds only with the current lease token, and answers `false` when the lease was lost.
 */
export class Jobs extends Context.Tag("@payrail/core/Jobs")<
  Jobs,
  {
    /** Stores a new `PENDING` job (or nothing, when its de-duplication key names an unfinished job). */
    readonly enqueue: (job: NewJob) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** `enqueue` of each, atomically (one statement on SQL adapters; none for an empty list). */
    readonly enqueueAll: (jobs: ReadonlyArray<NewJob>) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * Claims up to `limit` jobs that are due at `now` (`PENDING` with `dueAt <= now`, or `RUNNING` with a lease that
     * ran out), oldest due first, leasing each until `now + lease` and counting an attempt.
     */
    readonly claim: (options: {
      readonly limit: number
      readonly now: DateTime.Utc
      readonly lease: Duration.Duration
    }) => Effect.Effect<ReadonlyArray<ClaimedJob>, StoreFailure.StoreFailure>
    /** Marks a held job `DONE`. */
    readonly complete: (claimed: ClaimedJob) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * `complete` of each, at once (one statement on SQL adapters; none for an empty list): answers the ids of the
     * jobs it completed, those whose lease was still held.
     */
    readonly completeAll: (
      claimed: ReadonlyArray<ClaimedJob>
    ) => Effect.Effect<ReadonlyArray<JobId>, StoreFailure.StoreFailure>
    /** Puts a held job back to `PENDING`, due at `dueAt`, recording why its attempt failed. */
    readonly retry: (
      claimed: ClaimedJob,
      options: { readonly dueAt: DateTime.Utc; readonly error: string }
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Parks a held job as `DEAD` after its last allowed attempt, recording why. */
    readonly bury: (claimed: ClaimedJob, error: string) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Gives a held job back unrun (a worker shutting down): `PENDING` at its due time, the attempt not counted. */
    readonly release: (claimed: ClaimedJob) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * The platform's clock moved `by` ahead: its `PENDING` jobs come due that much sooner in real time, so each still
     * runs when the platform's time reaches the due time it was given. Idle workers wake once the unit of work
     * commits.
     */
    readonly shiftPlatform: (
      platformId: PlatformId.PlatformId,
      by: Duration.Duration
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The earliest due time of any `PENDING` job, and of any running lease's end: when a worker next has work. */
    readonly nextDueAt: Effect.Effect<Option.Option<DateTime.Utc>, StoreFailure.StoreFailure>
    readonly findById: (id: JobId) => Effect.Effect<Option.Option<Job>, StoreFailure.StoreFailure>
    /**
     * Emits after a unit of work that enqueued jobs commits, in this process or (PostgreSQL `LISTEN/NOTIFY`) in any
     * process sharing the store, so that idle workers wake without polling. Signals may be coalesced.
     */
    readonly wakeups: Stream.Stream<void>
  }
>() {}
