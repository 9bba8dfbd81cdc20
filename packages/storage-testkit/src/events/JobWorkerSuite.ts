import { expect } from "@effect/vitest"
import { Chunk, DateTime, Duration, Effect, Fiber, Logger, LogLevel, Queue, TestClock, TestContext } from "effect"
import { type Job, JobErrors, JobHandler, JobWorker, Jobs } from "@payrail/core"
import type { Methods } from "../internal/Methods.js"
import { clean, eventually, freshKind, newJob, stored } from "./JobFixtures.js"

const workerOptions: JobWorker.Options = {
  concurrency: 4,
  batchSize: 3,
  lease: "30 seconds",
  shutdownGrace: "1 second"
}

/**
 * `JobWorker` over the adapter: several workers racing over one store run each job exactly once, and a failing job
 * follows its backoff schedule (on `TestClock`) to its burial.
 */
export const register = (it: Methods) => {
  it.scoped("runs each of 60 jobs exactly once with 4 workers racing, woken by the enqueue", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      const runs = new Map<string, number>()
      const handler = JobHandler.make({
        kind,
        handle: (job) =>
          Effect.sync(() => void runs.set(String(job.payload["n"]), (runs.get(String(job.payload["n"])) ?? 0) + 1))
      })
      const workers = yield* Effect.all(
        Array.from({ length: 4 }, () => Effect.forkScoped(JobWorker.run([handler], workerOptions))),
        { concurrency: "unbounded" }
      )
      const now = yield* DateTime.now
      yield* jobs.enqueueAll(Array.from({ length: 60 }, (_, n) => newJob(kind, now, { payload: { n } })))
      yield* eventually(Effect.sync(() => runs.size === 60))
      // Give a duplicate run, if there were one, the time to happen.
      yield* Effect.sleep("200 millis")
      expect([...runs.values()].every((count) => count === 1)).toBe(true)
      yield* Effect.forEach(workers, Fiber.interrupt, { discard: true })
      const claimedAfter = yield* jobs.claim({
        limit: 100,
        now: DateTime.addDuration(now, "1 hour"),
        lease: Duration.seconds(1)
      })
      expect(claimedAfter.filter(({ job }) => job.kind === kind)).toEqual([])
    })
  )

  it.scoped("retries a failing job on its backoff schedule under TestClock, then parks it DEAD with the error", () =>
    Effect.gen(function* () {
      yield* clean
      const jobs = yield* Jobs.Jobs
      const kind = freshKind()
      const attempts = yield* Queue.unbounded<{ readonly id: Job.JobId; readonly atMillis: number }>()
      const handler = JobHandler.make({
        kind,
        retry: { maxAttempts: 4, backoffBase: "10 seconds", backoffCap: "25 seconds", jitter: 0 },
        handle: (job) =>
          Effect.flatMap(DateTime.now, (now) =>
            Queue.offer(attempts, { id: job.id, atMillis: DateTime.toEpochMillis(now) })
          ).pipe(Effect.zipRight(Effect.fail(JobErrors.JobFailed.retry("receiver answered 503"))))
      })
      yield* jobs.enqueue(newJob(kind, yield* DateTime.now))
      yield* Effect.forkScoped(JobWorker.run([handler], workerOptions))
      const times: Array<number> = []
      for (const next of [10, 30, 55]) {
        const { atMillis, id } = yield* Queue.take(attempts)
        times.push(atMillis / 1000)
        // The worker has settled the attempt and sleeps until the job is due again, and not before.
        yield* eventually(
          Effect.map(stored(id), (job) => job.status === "PENDING" && DateTime.toEpochMillis(job.dueAt) === next * 1000)
        )
        yield* eventually(Effect.map(TestClock.sleeps(), (sleeps) => Chunk.some(sleeps, (at) => at === next * 1000)))
        yield* TestClock.setTime(next * 1000 - 1)
        expect(yield* Queue.size(attempts)).toBe(0)
        yield* TestClock.setTime(next * 1000)
      }
      const last = yield* Queue.take(attempts)
      times.push(last.atMillis / 1000)
      expect(times).toEqual([0, 10, 30, 55])
      yield* eventually(Effect.map(stored(last.id), (job) => job.status === "DEAD"))
      expect(yield* stored(last.id)).toMatchObject({ status: "DEAD", attempts: 4, lastError: "receiver answered 503" })
    }).pipe(
      // The worker logs each failure; the case asserts on the store instead.
      Logger.withMinimumLogLevel(LogLevel.None),
      Effect.provide(TestContext.TestContext)
    )
  )
}
