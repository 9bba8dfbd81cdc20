import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, TestClock } from "effect"
import {
  IdempotencyKeys,
  IdempotencyPurgeJob,
  IdempotencyRecord,
  JobWorker,
  PlatformId,
  Purges,
  type UmaLookup,
  UmaLookupRepo,
  UnitOfWork
} from "@payrail/core"
import { PaymentFixtures } from "@payrail/storage-testkit"
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

// A receiver lookup made now (test time), which expires 15 minutes later.
const lookupNow = Effect.gen(function* () {
  const now = DateTime.toEpochMillis(yield* DateTime.now)
  const lookup = PaymentFixtures.umaLookup({ offsetMillis: now - Date.UTC(2026, 0, 1) })
  yield* (yield* UmaLookupRepo.UmaLookupRepo).insert(platformId, lookup)
  return lookup
})

const lookupStored = (lookup: UmaLookup.UmaLookup) =>
  Effect.flatMap(UmaLookupRepo.UmaLookupRepo, (repo) => repo.findById(platformId, lookup.id)).pipe(
    Effect.map(Option.isSome)
  )

// Lets the worker's fibers run without moving the clock.
const settle = Effect.repeatN(Effect.yieldNow(), 200)

describe("the hourly idempotency purge job", () => {
  it.scoped(
    "deletes records past 24 hours and lookups expired over an hour ago every hour, keeps the rest, and schedules one run per hour",
    () =>
      Effect.gen(function* () {
        const old = yield* keep("old")
        const oldLookup = yield* lookupNow
        yield* TestClock.adjust("23 hours")
        const young = yield* keep("young")
        const youngLookup = yield* lookupNow

        yield* IdempotencyPurgeJob.schedule
        // Scheduling again (a second instance starting) adds no second run of the hour.
        yield* IdempotencyPurgeJob.schedule
        yield* Effect.forkScoped(JobWorker.run([Purges.handler], options))
        yield* settle
        const keys = yield* IdempotencyKeys.IdempotencyKeys
        // At 23 h neither record is past 24 hours.
        expect(Option.isSome(yield* keys.find(old))).toBe(true)
        // A receiver lookup expired more than an hour ago is gone; one that can still be used is kept.
        expect(yield* lookupStored(oldLookup)).toBe(false)
        expect(yield* lookupStored(youngLookup)).toBe(true)

        // The next hourly run, at 24 h, finds `old` exactly 24 hours old: not older than the retention yet.
        yield* TestClock.adjust("1 hour")
        yield* settle
        expect(Option.isSome(yield* keys.find(old))).toBe(true)

        // The run at 25 h deletes it, and keeps `young` (2 hours old).
        yield* TestClock.adjust("1 hour")
        yield* settle
        expect(yield* keys.find(old)).toEqual(Option.none())
        expect(Option.isSome(yield* keys.find(young))).toBe(true)
        // At 25 h the young lookup expired 1 h 45 min ago: past the hour's retention.
        expect(yield* lookupStored(youngLookup)).toBe(false)
        expect(DateTime.toEpochMillis(yield* DateTime.now)).toBe(Duration.toMillis("25 hours"))
      }).pipe(Effect.provide(StorageMemory.layer))
  )
})
