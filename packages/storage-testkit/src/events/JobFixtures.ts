import { DateTime, Duration, Effect, Option, Queue, Stream, TestServices } from "effect"
import { type Errors, Job, Jobs } from "@payrail/core"

/** A kind no other test uses, so each case recognises its own jobs. */
export const freshKind = () => `conformance.${globalThis.crypto.randomUUID()}`

/** The instant `seconds` after 2030-01-01T00:00:00Z. */
export const at = (seconds: number): DateTime.Utc => DateTime.unsafeMake(Date.UTC(2030, 0, 1) + seconds * 1000)

export const lease = Duration.seconds(30)

/** A job of `kind` due at `dueAt`. */
export const newJob = (kind: string, dueAt: DateTime.Utc, fields: Partial<Job.NewJob> = {}): Job.NewJob => ({
  kind,
  payload: { note: "conformance" },
  dueAt,
  ...fields
})

/**
 * Settles every job earlier cases left claimable (due or leased before the year 3000), so that a case's claims see
 * only its own jobs: the cases of a suite share one store.
 */
export const clean: Effect.Effect<void, Errors.StoreFailure, Jobs.Jobs> = Effect.gen(function* () {
  const jobs = yield* Jobs.Jobs
  const farFuture = DateTime.unsafeMake(Date.UTC(3000, 0, 1))
  for (;;) {
    const claimed = yield* jobs.claim({ limit: 500, now: farFuture, lease })
    if (claimed.length === 0) return
    yield* Effect.forEach(claimed, jobs.complete, { discard: true })
  }
})

/** The one job a claim at `now` hands out (failing the case when it hands out none or several). */
export const claimOne = (now: DateTime.Utc) =>
  Effect.flatMap(Jobs.Jobs, (jobs) => jobs.claim({ limit: 10, now, lease })).pipe(
    Effect.filterOrDieMessage((claimed) => claimed.length === 1, "expected exactly one claimed job"),
    Effect.map((claimed) => claimed[0]!)
  )

/** The stored job, which must exist. */
export const stored = (id: Job.JobId) =>
  Effect.flatMap(Jobs.Jobs, (jobs) => jobs.findById(id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.dieMessage(`job ${id} not found`), onSome: Effect.succeed }))
  )

/** Waits on the live clock, also inside a case that runs on `TestClock`. */
export const liveSleep = (duration: Duration.DurationInput) => TestServices.provideLive(Effect.sleep(duration))

/** Polls `check` on the live clock every 10 ms until it holds, for at most `within`. */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>, within: Duration.DurationInput = "20 seconds") =>
  Effect.gen(function* () {
    for (let polls = Duration.toMillis(within) / 10; !(yield* check); polls--) {
      if (polls <= 0) return yield* Effect.dieMessage("condition not reached in time")
      yield* liveSleep("10 millis")
    }
  })

/** Collects the store's wakeups in a queue from now on (the subscription is live when this returns). */
export const collectWakeups = Effect.gen(function* () {
  const jobs = yield* Jobs.Jobs
  const received = yield* Queue.unbounded<void>()
  yield* jobs.wakeups.pipe(
    Stream.runForEach(() => Queue.offer(received, undefined)),
    Effect.forkScoped
  )
  yield* liveSleep("100 millis")
  return received
})
