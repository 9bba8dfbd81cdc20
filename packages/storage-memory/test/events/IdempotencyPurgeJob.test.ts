import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, TestClock } from "effect"
import {
  IdempotencyKeys,
  IdempotencyPurgeJob,
  IdempotencyRecord,
  JobWorker,
  PlatformId,
  UnitOfWork
} from "@payrail/core"
import { StorageMemory } from "../../src/index.js"

const options: JobWorker.Options = { concurrency: 2, lease: "1 minute", shutdownGrace: "5 seconds" }
const fingerprint: IdempotencyRecord.Fingerprint = "a".repeat(64)

const platformId = PlatformId.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001")

const keep = (key: string) =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys.IdempotencyKeys
    const scope = { platformId, key: IdempotencyRecord.IdempotencyKey.make(key) }
    yield* (yield* UnitOfWork.UnitOfWork).transaction(
      Effect.zipRight(
        keys.claim(scope, fingerprint),
        keys.complete(scope, { status: 201, contentType: "application/json", body: "{}" })
      )
    )
    return scope
  })

// Lets the worker's fibers run without moving the clock.
const settle = Effect.repeatN(Effect.yieldNow(), 200)

describe("the hourly idempotency purge job", () => {
  it.scoped("deletes records past 24 hours every hour, keeps younger ones, and schedules one run per hour", () =>
    Effect.gen(function* () {
      const old = yield* keep("old")
      yield* TestClock.adjust("23 hours")
      const young = yield* keep("young")

      yield* IdempotencyPurgeJob.schedule
      // Scheduling again (a second instance starting) adds no second run of the hour.
      yield* IdempotencyPurgeJob.schedule
      yield* Effect.forkScoped(JobWorker.run([IdempotencyPurgeJob.handler], options))
      yield* settle
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      // At 23 h neither record is past 24 hours.
      expect(Option.isSome(yield* keys.find(old))).toBe(true)

      // The next hourly run, at 24 h, finds `old` exactly 24 hours old: not older than the retention yet.
      yield* TestClock.adjust("1 hour")
      yield* settle
      expect(Option.isSome(yield* keys.find(old))).toBe(true)

      // The run at 25 h deletes it, and keeps `young` (2 hours old).
      yield* TestClock.adjust("1 hour")
      yield* settle
      expect(yield* keys.find(old)).toEqual(Option.none())
      expect(Option.isSome(yield* keys.find(young))).toBe(true)
      expect(DateTime.toEpochMillis(yield* DateTime.now)).toBe(Duration.toMillis("25 hours"))
    }).pipe(Effect.provide(StorageMemory.layer))
  )
})
