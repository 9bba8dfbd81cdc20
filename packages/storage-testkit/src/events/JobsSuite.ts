import { expect } from "@effect/vitest"
import { DateTime, Duration, Effect, Either, Fiber, Option, Queue } from "effect"
import { Jobs, UnitOfWork } from "@payrail/core"
import type { Methods } from "../internal/Methods.js"
import { at, claimOne, clean, collectWakeups, freshKind, lease, liveSleep, newJob, stored } from "./JobFixtures.js"

const claimAt = (now: DateTime.Utc, limit = 100) =>
  Effect.flatMap(Jobs.Jobs, (jobs) => jobs.claim({ limit, now, lease }))

/**
 * The store's side of durable jobs: enqueue in a unit of work, claims that hand each due job to one holder under a
 * lease, settlements guarded by the lease, de-duplication, and wakeups after commit.
 */
export const register = (it: Methods) => {
  it.effect("claims a due job once: RUNNING, the attempt counted, leased until now plus the lease", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      yield* jobs.enqueue(newJob(kind, at(0), { payload: { customerId: "Customer:1", amount: 5 } }))
      expect(yield* claimAt(at(-1))).toEqual([])
      const claimed = yield* claimOne(at(5))
      expect(claimed.job).toMatchObject({
        kind,
        payload: { customerId: "Customer:1", amount: 5 },
        status: "RUNNING",
        attempts: 1,
        dueAt: at(0)
      })
      expect(claimed.leaseExpiresAt).toEqual(DateTime.addDuration(at(5), lease))
      expect(yield* stored(claimed.job.id)).toMatchObject({ status: "RUNNING", attempts: 1 })
      expect(yield* claimAt(at(6))).toEqual([])
      expect(yield* jobs.complete(claimed)).toBe(true)
      expect(yield* stored(claimed.job.id)).toMatchObject({ status: "DONE", attempts: 1 })
      expect(yield* jobs.complete(claimed)).toBe(false)
    })
  )

  it.effect("claims the oldest due first, at most the limit, never a job due later", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      yield* jobs.enqueueAll([30, 10, 20, 40, 100].map((seconds) => newJob(kind, at(seconds))))
      const first = yield* claimAt(at(50), 2)
      expect(first.map(({ job }) => job.dueAt).sort(DateTime.Order)).toEqual([at(10), at(20)])
      const second = yield* claimAt(at(50), 10)
      expect(second.map(({ job }) => job.dueAt).sort(DateTime.Order)).toEqual([at(30), at(40)])
      // The leases taken at 50 end at 80, before the last job is due.
      expect(yield* jobs.nextDueAt).toEqual(Option.some(DateTime.addDuration(at(50), lease)))
    })
  )

  it.effect("hands each of 40 due jobs to exactly one of 8 concurrent claims", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueueAll(Array.from({ length: 40 }, () => newJob(freshKind(), at(0))))
      const batches = yield* Effect.all(
        Array.from({ length: 8 }, () => claimAt(at(1), 7)),
        { concurrency: "unbounded" }
      )
      const ids = batches.flat().map(({ job }) => job.id)
      expect(ids).toHaveLength(40)
      expect(new Set(ids).size).toBe(40)
    })
  )

  it.effect("re-claims a job whose lease ran out; the first holder can then settle nothing", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueue(newJob(freshKind(), at(0)))
      const first = yield* claimOne(at(0))
      expect(yield* claimAt(DateTime.subtractDuration(first.leaseExpiresAt, Duration.millis(1)))).toEqual([])
      expect(yield* jobs.nextDueAt).toEqual(Option.some(first.leaseExpiresAt))
      const second = yield* claimOne(first.leaseExpiresAt)
      expect(second.job.id).toBe(first.job.id)
      expect(second.job.attempts).toBe(2)
      expect(second.leaseToken).not.toBe(first.leaseToken)
      expect(yield* jobs.complete(first)).toBe(false)
      expect(yield* jobs.retry(first, { dueAt: at(100), error: "late" })).toBe(false)
      expect(yield* jobs.bury(first, "late")).toBe(false)
      expect(yield* jobs.release(first)).toBe(false)
      expect(yield* stored(first.job.id)).toMatchObject({ status: "RUNNING", attempts: 2 })
      expect(yield* jobs.complete(second)).toBe(true)
      expect(yield* stored(first.job.id)).toMatchObject({ status: "DONE" })
    })
  )

  it.effect("completes a batch at once, all but the job whose lease was lost", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueueAll([0, 1, 2].map((seconds) => newJob(freshKind(), at(seconds))))
      // The first claim's lease ends before the others': only that job is taken over.
      const [lost] = yield* claimAt(at(5), 1)
      const [first, second] = yield* claimAt(at(10))
      const reclaimed = yield* claimOne(lost!.leaseExpiresAt)
      expect(yield* jobs.completeAll([])).toEqual([])
      const completed = yield* jobs.completeAll([first!, second!, lost!])
      expect([...completed].sort()).toEqual([first!.job.id, second!.job.id].sort())
      expect(yield* stored(first!.job.id)).toMatchObject({ status: "DONE" })
      expect(yield* stored(second!.job.id)).toMatchObject({ status: "DONE" })
      expect(yield* stored(lost!.job.id)).toMatchObject({ status: "RUNNING", attempts: 2 })
      expect(yield* jobs.completeAll([reclaimed])).toEqual([lost!.job.id])
    })
  )

  it.effect("retries a job as PENDING at the given time with the error, not claimable before it", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueue(newJob(freshKind(), at(0)))
      const claimed = yield* claimOne(at(0))
      expect(yield* jobs.retry(claimed, { dueAt: at(60), error: "receiver answered 503" })).toBe(true)
      expect(yield* stored(claimed.job.id)).toMatchObject({
        status: "PENDING",
        dueAt: at(60),
        attempts: 1,
        lastError: "receiver answered 503"
      })
      expect(yield* jobs.nextDueAt).toEqual(Option.some(at(60)))
      expect(yield* claimAt(at(59))).toEqual([])
      expect((yield* claimOne(at(60))).job.attempts).toBe(2)
    })
  )

  it.effect("buries a job as DEAD with its error: never claimed again", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueue(newJob(freshKind(), at(0)))
      const claimed = yield* claimOne(at(0))
      expect(yield* jobs.bury(claimed, "gave up")).toBe(true)
      expect(yield* stored(claimed.job.id)).toMatchObject({ status: "DEAD", attempts: 1, lastError: "gave up" })
      expect(yield* claimAt(at(1_000_000))).toEqual([])
      expect(yield* jobs.nextDueAt).toEqual(Option.none())
    })
  )

  it.effect("releases a job unrun: PENDING at its due time, the attempt not counted", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      yield* jobs.enqueue(newJob(freshKind(), at(5)))
      const claimed = yield* claimOne(at(10))
      expect(yield* jobs.release(claimed)).toBe(true)
      expect(yield* stored(claimed.job.id)).toMatchObject({ status: "PENDING", attempts: 0, dueAt: at(5) })
      expect((yield* claimOne(at(10))).job.attempts).toBe(1)
    })
  )

  it.effect("keeps no job enqueued in a unit of work that fails, nor in a savepoint that fails", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const store = yield* UnitOfWork.UnitOfWork
      const kind = freshKind()
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(jobs.enqueue(newJob(kind, at(0))), Effect.fail("boom" as const)))
      )
      expect(failed).toEqual(Either.left("boom"))
      yield* store.transaction(
        Effect.gen(function* () {
          yield* jobs.enqueue(newJob(kind, at(1), { payload: { kept: true } }))
          yield* Effect.ignore(
            store.transaction(Effect.zipRight(jobs.enqueue(newJob(kind, at(2))), Effect.fail("inner" as const)))
          )
        })
      )
      const claimed = yield* claimAt(at(100))
      expect(claimed.map(({ job }) => job.payload)).toEqual([{ kept: true }])
    })
  )

  it.effect("keeps one unfinished job per de-duplication key, and takes the key again once the job is done", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      const keyed = (seconds: number) => newJob(kind, at(seconds), { deduplicationKey: "expire:Quote:1" })
      yield* jobs.enqueue(keyed(0))
      yield* jobs.enqueueAll([keyed(1), keyed(2), newJob(kind, at(3))])
      yield* jobs.enqueue(newJob(freshKind(), at(4), { deduplicationKey: "expire:Quote:1" }))
      const claimed = yield* claimAt(at(10))
      expect(claimed.map(({ job }) => DateTime.toEpochMillis(job.dueAt)).sort((a, b) => a - b)).toEqual(
        [at(0), at(3), at(4)].map(DateTime.toEpochMillis)
      )
      const held = claimed.find(({ job }) => job.kind === kind && DateTime.Equivalence(job.dueAt, at(0)))!
      // Running still counts as unfinished.
      yield* jobs.enqueue(keyed(5))
      expect(yield* claimAt(at(10))).toEqual([])
      yield* jobs.complete(held)
      yield* jobs.enqueue(keyed(6))
      expect((yield* claimAt(at(10))).map(({ job }) => job.dueAt)).toEqual([at(6)])
    })
  )

  it.scoped("wakes listeners after an enqueue commits, and not for one that rolls back", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const store = yield* UnitOfWork.UnitOfWork
      const wakeups = yield* collectWakeups
      const kind = freshKind()
      // Due long ago: within any store's wake horizon (`Jobs.wakeHorizon`) of real time, whatever the test clock says.
      const overdue = DateTime.unsafeMake(0)
      const awaitWakeup = Queue.take(wakeups).pipe(
        Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => "no wakeup" as const })
      )
      yield* store.transaction(jobs.enqueue(newJob(kind, overdue)))
      yield* awaitWakeup
      yield* Queue.takeAll(wakeups)

      yield* Effect.ignore(
        store.transaction(
          Effect.gen(function* () {
            yield* jobs.enqueue(newJob(kind, overdue))
            // The unit of work stays open a while: a wakeup sent at enqueue time would arrive here.
            yield* liveSleep("200 millis")
            return yield* Effect.fail("rolled back" as const)
          })
        )
      )
      yield* liveSleep("300 millis")
      expect(yield* Queue.size(wakeups)).toBe(0)

      const committing = yield* Effect.fork(
        store.transaction(Effect.zipRight(jobs.enqueue(newJob(kind, overdue)), liveSleep("200 millis")))
      )
      yield* liveSleep("100 millis")
      // Enqueued, not yet committed: nobody is woken yet.
      expect(yield* Queue.size(wakeups)).toBe(0)
      yield* Fiber.join(committing)
      yield* awaitWakeup
    })
  )
}
