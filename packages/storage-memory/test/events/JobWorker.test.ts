import { describe, expect, it } from "@effect/vitest"
import {
  DateTime,
  Deferred,
  Effect,
  Exit,
  Fiber,
  HashMap,
  Logger,
  LogLevel,
  Option,
  Queue,
  Ref,
  TestClock
} from "effect"
import { Job, JobErrors, JobHandler, JobWorker, Jobs } from "@payrail/core"
import { StorageMemory } from "../../src/index.js"

const options: JobWorker.Options = { concurrency: 4, lease: "1 minute", shutdownGrace: "5 seconds" }

const enqueue = (kind: string, payload: Job.JobPayload = {}) =>
  Effect.flatMap(Effect.all([Jobs.Jobs, DateTime.now]), ([jobs, now]) => jobs.enqueue({ kind, payload, dueAt: now }))

/** The stored job, which must exist. */
const jobOf = (id: Job.JobId) =>
  Effect.flatMap(Jobs.Jobs, (jobs) => jobs.findById(id)).pipe(Effect.map(Option.getOrThrow))

/** Waits (yielding to the worker, never moving the clock) until the job satisfies `done`. */
const settledAs = (id: Job.JobId, done: (job: Job.Job) => boolean) =>
  Effect.gen(function* () {
    for (let turn = 0; turn < 10_000; turn++) {
      const job = yield* jobOf(id)
      if (done(job)) return job
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage("the job was never settled")
  })

// Records the id of each job a handler starts.
const started = () => Queue.unbounded<Job.JobId>()

interface LogLine {
  readonly level: LogLevel.LogLevel
  readonly message: string
  readonly annotations: Record<string, unknown>
}

const capturingLogger = (lines: Array<LogLine>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ annotations, logLevel, message }) => {
      lines.push({
        level: logLevel,
        message: Array.isArray(message) ? message.join(" ") : String(message),
        annotations: Object.fromEntries(HashMap.toEntries(annotations))
      })
    })
  )

const inStore = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.scoped(effect).pipe(Effect.provide(StorageMemory.layer))

describe("JobWorker on the memory store", () => {
  it.effect("completes a job its handler runs, and buries a job of an unknown kind with a clear error", () =>
    Effect.gen(function* () {
      const lines: Array<LogLine> = []
      yield* inStore(
        Effect.gen(function* () {
          const ran = yield* started()
          yield* Effect.forkScoped(
            JobWorker.run([JobHandler.make({ kind: "known", handle: (job) => Queue.offer(ran, job.id) })], options)
          )
          yield* enqueue("known")
          const id = yield* Queue.take(ran)
          expect(yield* settledAs(id, (job) => job.status !== "RUNNING")).toMatchObject({ status: "DONE", attempts: 1 })

          yield* enqueue("nobody.handles.this")
          for (let turn = 0; turn < 1000 && lines.length === 0; turn++) yield* Effect.yieldNow()
          const burial = lines.find((line) => line.level === LogLevel.Error)
          expect(burial?.annotations).toMatchObject({ kind: "nobody.handles.this" })
          const buried = yield* jobOf(Job.JobId.make(String(burial?.annotations["jobId"])))
          expect(buried).toMatchObject({
            status: "DEAD",
            attempts: 1,
            lastError: 'no handler runs jobs of kind "nobody.handles.this"'
          })
          expect(yield* Queue.size(ran)).toBe(0)
        })
      ).pipe(Effect.provide(capturingLogger(lines)))
    })
  )

  it.effect("buries a permanent failure at once, honours retryAt, and retries a defect with a generic error", () =>
    inStore(
      Effect.gen(function* () {
        const ran = yield* started()
        const retryAt = DateTime.unsafeMake("1970-01-01T00:05:00Z")
        const handlers = [
          JobHandler.make({
            kind: "permanent",
            handle: (job) =>
              Effect.zipRight(Queue.offer(ran, job.id), Effect.fail(JobErrors.JobFailed.permanent("gone")))
          }),
          JobHandler.make({
            kind: "later",
            handle: (job) =>
              Effect.zipRight(Queue.offer(ran, job.id), Effect.fail(JobErrors.JobFailed.retryAt("closed", retryAt)))
          }),
          JobHandler.make({
            kind: "dies",
            handle: (job) => Effect.zipRight(Queue.offer(ran, job.id), Effect.dieMessage("secret internals"))
          })
        ]
        yield* Effect.forkScoped(JobWorker.run(handlers, options))
        yield* enqueue("permanent")
        const permanent = yield* Queue.take(ran)
        expect(yield* settledAs(permanent, (job) => job.status !== "RUNNING")).toMatchObject({
          status: "DEAD",
          attempts: 1,
          lastError: "gone"
        })
        yield* enqueue("later")
        const later = yield* Queue.take(ran)
        expect(yield* settledAs(later, (job) => job.status !== "RUNNING")).toMatchObject({
          status: "PENDING",
          dueAt: retryAt
        })
        yield* enqueue("dies")
        const dies = yield* Queue.take(ran)
        const died = yield* settledAs(dies, (job) => job.status !== "RUNNING")
        expect(died).toMatchObject({ status: "PENDING", lastError: "the handler failed unexpectedly" })
        expect(DateTime.toEpochMillis(died.dueAt)).toBeGreaterThan(0)
      })
    )
  )

  it.effect("runs at most `concurrency` handlers at once, and the rest as slots free up", () =>
    inStore(
      Effect.gen(function* () {
        const running = yield* Ref.make(0)
        const peak = yield* Ref.make(0)
        const gate = yield* Deferred.make<void>()
        const ran = yield* started()
        const handler = JobHandler.make({
          kind: "slow",
          handle: (job) =>
            Effect.gen(function* () {
              const now = yield* Ref.updateAndGet(running, (n) => n + 1)
              yield* Ref.update(peak, (max) => Math.max(max, now))
              yield* Queue.offer(ran, job.id)
              yield* Deferred.await(gate)
              yield* Ref.update(running, (n) => n - 1)
            })
        })
        yield* Effect.forkScoped(JobWorker.run([handler], { ...options, concurrency: 2 }))
        for (let n = 0; n < 5; n++) yield* enqueue("slow")
        yield* Queue.take(ran)
        yield* Queue.take(ran)
        yield* Effect.repeat(Effect.yieldNow(), { times: 100 })
        expect(yield* Queue.size(ran)).toBe(0)
        yield* Deferred.succeed(gate, undefined)
        const rest = [yield* Queue.take(ran), yield* Queue.take(ran), yield* Queue.take(ran)]
        expect(rest).toHaveLength(3)
        expect(yield* Ref.get(peak)).toBe(2)
      })
    )
  )

  it.effect("interrupts a handler that outlives its lease and retries the job", () =>
    inStore(
      Effect.gen(function* () {
        const ran = yield* started()
        const handler = JobHandler.make({
          kind: "stuck",
          retry: { jitter: 0 },
          handle: (job) => Effect.zipRight(Queue.offer(ran, job.id), Effect.never)
        })
        yield* Effect.forkScoped(JobWorker.run([handler], options))
        yield* enqueue("stuck")
        const id = yield* Queue.take(ran)
        // At 90% of the one-minute lease the handler is stopped and the job retried one second later.
        yield* TestClock.adjust("53 seconds")
        expect((yield* jobOf(id)).status).toBe("RUNNING")
        yield* TestClock.adjust("1 second")
        expect(yield* settledAs(id, (job) => job.status === "PENDING")).toMatchObject({
          attempts: 1,
          lastError: "the handler did not finish within the job's lease",
          dueAt: DateTime.unsafeMake("1970-01-01T00:00:55Z")
        })
      })
    )
  )

  it.effect("on interruption lets a handler finish within the grace period, and releases one that does not", () =>
    inStore(
      Effect.gen(function* () {
        const ran = yield* started()
        const quick = yield* Deferred.make<void>()
        const handlers = [
          JobHandler.make({
            kind: "quick",
            handle: (job) => Effect.zipRight(Queue.offer(ran, job.id), Deferred.await(quick))
          }),
          JobHandler.make({ kind: "slow", handle: (job) => Effect.zipRight(Queue.offer(ran, job.id), Effect.never) })
        ]
        const worker = yield* Effect.fork(JobWorker.run(handlers, options))
        yield* enqueue("quick")
        const quickId = yield* Queue.take(ran)
        yield* enqueue("slow")
        const slowId = yield* Queue.take(ran)
        const stopping = yield* Effect.fork(Fiber.interrupt(worker))
        yield* TestClock.adjust("1 second")
        yield* Deferred.succeed(quick, undefined)
        expect(yield* settledAs(quickId, (job) => job.status === "DONE")).toMatchObject({ attempts: 1 })
        expect((yield* jobOf(slowId)).status).toBe("RUNNING")
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(stopping)
        expect(yield* jobOf(slowId)).toMatchObject({ status: "PENDING", attempts: 0 })
        // Stopped: nothing claims the released job any more.
        yield* Effect.repeat(Effect.yieldNow(), { times: 50 })
        expect(yield* Queue.size(ran)).toBe(0)
      })
    )
  )

  it.effect(
    "logs a failed attempt at Warning and a burial at Error with the job's id and kind, never its payload",
    () =>
      Effect.gen(function* () {
        const lines: Array<LogLine> = []
        yield* inStore(
          Effect.gen(function* () {
            const ran = yield* started()
            const handler = JobHandler.make({
              kind: "flaky",
              retry: { maxAttempts: 2, backoffBase: "1 second", jitter: 0 },
              handle: (job) => Effect.zipRight(Queue.offer(ran, job.id), Effect.fail(JobErrors.JobFailed.retry("503")))
            })
            yield* Effect.forkScoped(JobWorker.run([handler], options))
            yield* enqueue("flaky", { apiSecret: "sk_live_do_not_log" })
            const id = yield* Queue.take(ran)
            yield* settledAs(id, (job) => job.status === "PENDING")
            yield* TestClock.adjust("1 second")
            yield* Queue.take(ran)
            yield* settledAs(id, (job) => job.status === "DEAD")
            const failures = lines.filter((line) => line.level !== LogLevel.Debug)
            expect(failures.map(({ annotations, level, message }) => [level.label, message, annotations])).toEqual([
              [
                "WARN",
                "job failed and will be retried",
                { jobId: id, kind: "flaky", attempt: 1, error: "503", retryAt: "1970-01-01T00:00:01.000Z" }
              ],
              [
                "ERROR",
                "job failed for the last time and is dead",
                { jobId: id, kind: "flaky", attempt: 2, error: "503" }
              ]
            ])
          })
        ).pipe(Effect.provide(capturingLogger(lines)))
        expect(JSON.stringify(lines)).not.toContain("sk_live_do_not_log")
      })
  )
})

describe("JobWorker with a batch handler (JobHandler.handleBatch)", () => {
  // Runs the jobs of each claim in one call, reporting the outcome at each position of `outcomes` (the first alone,
  // then the rest at once; a job past the end of `outcomes` is never reported); then waits for `hold`.
  const batchHandler = (
    batches: Queue.Queue<ReadonlyArray<Job.JobId>>,
    outcomes: ReadonlyArray<Exit.Exit<void, JobErrors.JobFailed>>,
    hold: Effect.Effect<void>
  ) =>
    JobHandler.make({
      kind: "batched",
      retry: { jitter: 0, backoffBase: "1 second" },
      handle: () => Effect.dieMessage("handle is not called for a batch kind"),
      handleBatch: (jobs, report) =>
        Effect.gen(function* () {
          yield* Queue.offer(
            batches,
            jobs.map((job) => job.id)
          )
          const reported = outcomes.slice(0, jobs.length).map((exit, index) => ({ index, exit }))
          yield* report(reported.slice(0, 1))
          yield* report(reported.slice(1))
          yield* hold
        })
    })

  it.effect("runs a claim's jobs in one call and settles each as reported; an unreported job is retried", () =>
    inStore(
      Effect.gen(function* () {
        const batches = yield* Queue.unbounded<ReadonlyArray<Job.JobId>>()
        for (let index = 0; index < 4; index++) yield* enqueue("batched")
        const handler = batchHandler(
          batches,
          [Exit.void, Exit.fail(JobErrors.JobFailed.retry("503")), Exit.fail(JobErrors.JobFailed.permanent("gone"))],
          Effect.void
        )
        yield* Effect.forkScoped(JobWorker.run([handler], options))
        const ids = yield* Queue.take(batches)
        expect(ids).toHaveLength(4)
        const [done, retried, dead, unreported] = ids.map((id) => Job.JobId.make(id))
        if (done === undefined || retried === undefined || dead === undefined || unreported === undefined) return
        expect(yield* settledAs(done, (job) => job.status === "DONE")).toMatchObject({ attempts: 1 })
        expect(yield* settledAs(retried, (job) => job.status === "PENDING")).toMatchObject({ lastError: "503" })
        expect(yield* settledAs(dead, (job) => job.status === "DEAD")).toMatchObject({ lastError: "gone" })
        expect(yield* settledAs(unreported, (job) => job.status === "PENDING")).toMatchObject({
          attempts: 1,
          lastError: "the batch handler ended without an outcome for the job"
        })
      })
    )
  )

  it.effect("retries the jobs of a batch that outlives its lease, and releases them on shutdown", () =>
    inStore(
      Effect.gen(function* () {
        const batches = yield* Queue.unbounded<ReadonlyArray<Job.JobId>>()
        for (let index = 0; index < 2; index++) yield* enqueue("batched")
        const worker = yield* Effect.fork(JobWorker.run([batchHandler(batches, [], Effect.never)], options))
        const ids = yield* Queue.take(batches)
        expect(ids).toHaveLength(2)
        yield* TestClock.adjust("54 seconds")
        for (const id of ids) {
          expect(yield* settledAs(id, (job) => job.status === "PENDING")).toMatchObject({
            attempts: 1,
            lastError: "the handler did not finish within the job's lease"
          })
        }
        // Claimed again a second later; interrupted, the worker releases them with their attempt not counted.
        yield* TestClock.adjust("1 second")
        expect([...(yield* Queue.take(batches))].sort()).toEqual([...ids].sort())
        const stopping = yield* Effect.fork(Fiber.interrupt(worker))
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(stopping)
        for (const id of ids) expect(yield* jobOf(id)).toMatchObject({ status: "PENDING", attempts: 1 })
      })
    )
  )
})
