import { expect } from "@effect/vitest"
import { DateTime, Duration, Effect, Either, Option, Ref, TestClock, TestContext } from "effect"
import { IdempotencyKeys, IdempotencyPurge, IdempotencyRecord, type Platform, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const fingerprintOf = (digit: string): IdempotencyRecord.Fingerprint => digit.repeat(64)
const first = fingerprintOf("a")
const second = fingerprintOf("b")

const response = (body: string): IdempotencyRecord.StoredResponse => ({
  status: 201,
  contentType: "application/json",
  body
})

const scopeOf = (platform: Platform.Platform, key: string): IdempotencyRecord.KeyScope => ({
  platformId: platform.id,
  key: IdempotencyRecord.IdempotencyKey.make(key)
})

/** Claims `scope` and, when it wins, stores `stored`, in one unit of work; answers what the claim found. */
const claimAndComplete = (
  scope: IdempotencyRecord.KeyScope,
  fingerprint: IdempotencyRecord.Fingerprint,
  stored: IdempotencyRecord.StoredResponse
) =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys.IdempotencyKeys
    const store = yield* UnitOfWork.UnitOfWork
    return yield* store.transaction(
      Effect.gen(function* () {
        const claim = yield* keys.claim(scope, fingerprint)
        if (claim._tag === "Claimed") yield* keys.complete(scope, stored)
        return claim
      })
    )
  })

/**
 * The idempotency keys: a claim and its response commit with the unit of work, a replay finds the response, another
 * request under the key is refused, a rolled-back claim frees the key, platforms never share keys, concurrent claims
 * have one winner, and the purge removes only records older than its cutoff.
 */
export const register = (it: Methods) => {
  it.effect("claims a fresh key, then answers its stored response to the same request and refuses another", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const platform = yield* Fixtures.insertPlatform
      const scope = scopeOf(platform, "order 1 / attempt")
      expect(yield* keys.find(scope)).toEqual(Option.none())
      expect(yield* claimAndComplete(scope, first, response('{"id":1}'))).toEqual({ _tag: "Claimed" })
      expect(yield* claimAndComplete(scope, first, response('{"id":2}'))).toEqual({
        _tag: "Completed",
        response: response('{"id":1}')
      })
      const reused = yield* Effect.either(claimAndComplete(scope, second, response("{}")))
      expect(Either.isLeft(reused) && reused.left._tag).toBe("IdempotencyKeyReused")
      const found = yield* keys.find(scope)
      expect(
        Option.map(found, ({ fingerprint, key, platformId, response }) => ({ fingerprint, key, platformId, response }))
      ).toEqual(
        Option.some({ fingerprint: first, key: scope.key, platformId: platform.id, response: response('{"id":1}') })
      )
    })
  )

  it.effect("frees the key when the unit of work that claimed it rolls back, response and all", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const scope = scopeOf(platform, "rolled-back")
      const failed = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* keys.claim(scope, first)
            yield* keys.complete(scope, response("{}"))
            return yield* Effect.fail("the response could not be sent" as const)
          })
        )
      )
      expect(failed).toEqual(Either.left("the response could not be sent"))
      expect(yield* keys.find(scope)).toEqual(Option.none())
      expect(yield* claimAndComplete(scope, second, response("{}"))).toEqual({ _tag: "Claimed" })
    })
  )

  it.effect("keeps each platform's keys apart: the same key is fresh on another platform", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const mine = yield* Fixtures.insertPlatform
      const theirs = yield* Fixtures.insertPlatform
      expect(yield* claimAndComplete(scopeOf(mine, "shared"), first, response("mine"))).toEqual({ _tag: "Claimed" })
      expect(yield* keys.find(scopeOf(theirs, "shared"))).toEqual(Option.none())
      expect(yield* claimAndComplete(scopeOf(theirs, "shared"), second, response("theirs"))).toEqual({
        _tag: "Claimed"
      })
      expect(Option.map(yield* keys.find(scopeOf(mine, "shared")), (record) => record.response.body)).toEqual(
        Option.some("mine")
      )
    })
  )

  it.effect(
    "lets exactly one of 24 concurrent units of work claim a key; the others replay it or are told to retry",
    () =>
      Effect.gen(function* () {
        const keys = yield* IdempotencyKeys.IdempotencyKeys
        const store = yield* UnitOfWork.UnitOfWork
        const platform = yield* Fixtures.insertPlatform
        const scope = scopeOf(platform, "race")
        const effects = yield* Ref.make(0)
        const outcomes = yield* Effect.all(
          Array.from({ length: 24 }, () =>
            store
              .transaction(
                Effect.gen(function* () {
                  const claim = yield* keys.claim(scope, first)
                  if (claim._tag === "Completed") return claim.response.body
                  // The winner holds its claim a while, so that the others meet it in progress where they can.
                  yield* Effect.sleep("20 millis")
                  yield* Ref.update(effects, (n) => n + 1)
                  yield* keys.complete(scope, response("won"))
                  return "claimed"
                })
              )
              .pipe(Effect.catchTag("IdempotencyKeyInProgress", () => Effect.succeed("in progress")))
          ),
          { concurrency: "unbounded" }
        )
        expect(yield* Ref.get(effects)).toBe(1)
        expect(outcomes.filter((outcome) => outcome === "claimed")).toHaveLength(1)
        expect(outcomes.every((outcome) => ["claimed", "won", "in progress"].includes(outcome))).toBe(true)
        expect(Option.map(yield* keys.find(scope), (record) => record.response.body)).toEqual(Option.some("won"))
      })
  )

  it.effect("purges the records claimed before the cutoff and keeps the younger ones", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const platform = yield* Fixtures.insertPlatform
      const old = scopeOf(platform, "old")
      const young = scopeOf(platform, "young")
      yield* claimAndComplete(old, first, response("old"))
      yield* TestClock.adjust("2 hours")
      yield* claimAndComplete(young, first, response("young"))
      // The test clock starts at the epoch.
      const cutoff = DateTime.unsafeMake(Duration.toMillis("1 hour"))
      expect(yield* keys.purgeOlderThan(cutoff)).toBeGreaterThanOrEqual(1)
      expect(yield* keys.find(old)).toEqual(Option.none())
      expect(Option.map(yield* keys.find(young), (record) => record.response.body)).toEqual(Option.some("young"))
      expect(yield* claimAndComplete(old, second, response("again"))).toEqual({ _tag: "Claimed" })
    }).pipe(Effect.provide(TestContext.TestContext))
  )

  it.effect("keeps every key for 24 hours: the purge job's function deletes only keys claimed longer ago", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const platform = yield* Fixtures.insertPlatform
      const day = scopeOf(platform, "a day old")
      const hours = scopeOf(platform, "23 hours old")
      yield* claimAndComplete(day, first, response("day"))
      yield* TestClock.adjust("1 hour")
      yield* claimAndComplete(hours, first, response("hours"))
      yield* TestClock.adjust("23 hours")
      yield* IdempotencyPurge.purge
      expect(Option.isSome(yield* keys.find(day))).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* IdempotencyPurge.purge).toBeGreaterThanOrEqual(1)
      expect(yield* keys.find(day)).toEqual(Option.none())
      expect(Option.isSome(yield* keys.find(hours))).toBe(true)
    }).pipe(Effect.provide(TestContext.TestContext))
  )
}
