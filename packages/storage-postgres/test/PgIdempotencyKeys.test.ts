import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber } from "effect"
import { IdempotencyKeys, IdempotencyRecord, UnitOfWork } from "@payrail/core"
import { Fixtures } from "@payrail/storage-testkit"
import * as Postgres from "./fixtures/Postgres.js"

const fingerprint = "c".repeat(64)

// PostgreSQL runs units of work side by side, so a duplicate meets the first request's claim while it is held:
// it must be refused at once, not queued behind the uncommitted row (PGlite and memory run one unit at a time).
describe.skipIf(!Postgres.configured)("PgIdempotencyKeys on PostgreSQL (DATABASE_URL)", () => {
  layer(Postgres.layer, { timeout: "60 seconds", excludeTestServices: true })((it) => {
    it.effect("refuses a claim held by a running unit of work at once, and replays it once that one commits", () =>
      Effect.gen(function* () {
        const keys = yield* IdempotencyKeys.IdempotencyKeys
        const store = yield* UnitOfWork.UnitOfWork
        const platform = yield* Fixtures.insertPlatform
        const scope = { platformId: platform.id, key: IdempotencyRecord.IdempotencyKey.make("held") }
        const claimed = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(
          store.transaction(
            Effect.gen(function* () {
              yield* keys.claim(scope, fingerprint)
              yield* Deferred.succeed(claimed, undefined)
              yield* Deferred.await(release)
              yield* keys.complete(scope, { status: 200, contentType: "application/json", body: "{}" })
            })
          )
        )
        yield* Deferred.await(claimed)
        const duplicate = yield* store
          .transaction(keys.claim(scope, fingerprint))
          .pipe(Effect.either, Effect.timeout("5 seconds"))
        expect(Either.isLeft(duplicate) && duplicate.left._tag).toBe("IdempotencyKeyInProgress")
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect(yield* store.transaction(keys.claim(scope, fingerprint))).toEqual({
          _tag: "Completed",
          response: { status: 200, contentType: "application/json", body: "{}" }
        })
      })
    )
  })
})
