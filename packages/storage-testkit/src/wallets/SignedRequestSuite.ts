import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { SignedRequest, SignedRequestRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as WalletFixtures from "./WalletFixtures.js"

const consumedAt = (request: SignedRequest.SignedRequest, offsetMillis: number) =>
  new SignedRequest.SignedRequest({ ...request, consumedAt: Fixtures.at(offsetMillis) })

/**
 * Signed-retry challenges: stored intact and found on their platform only, consumed once (by one of any number of
 * concurrent consumers, and not by a unit of work that rolls back), and purged once expired, a bounded batch at a
 * time.
 */
export const register = (it: Methods) => {
  it.effect("finds each request as inserted, every field intact, only within its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const requests = [
        WalletFixtures.signedRequest({ accountId }),
        WalletFixtures.signedRequest({ accountId, operation: "EXECUTE_QUOTE", offsetMillis: 1_234, full: true }),
        consumedAt(WalletFixtures.signedRequest({ accountId }), 5)
      ]
      for (const request of requests) yield* repo.insert(mine.id, request)
      for (const request of requests) {
        expect(yield* repo.findById(mine.id, request.id)).toEqual(Option.some(request))
        expect(yield* repo.findById(other.id, request.id)).toEqual(Option.none())
      }
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const first = WalletFixtures.signedRequest({ accountId: WalletFixtures.walletId() })
      yield* repo.insert(platform.id, first)
      const refused = yield* Effect.either(
        repo.insert(platform.id, new SignedRequest.SignedRequest({ ...first, bodyHash: "0".repeat(64) }))
      )
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, first.id)).toEqual(Option.some(first))
    })
  )

  it.effect("consumes a request once, on its own platform only", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const request = WalletFixtures.signedRequest({ accountId: WalletFixtures.walletId(), full: true })
      yield* repo.insert(platform.id, request)
      expect(yield* repo.consume(other.id, request.id, Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.findById(platform.id, request.id)).toEqual(Option.some(request))
      expect(yield* repo.consume(platform.id, request.id, Fixtures.at(2_000))).toBe(true)
      expect(yield* repo.consume(platform.id, request.id, Fixtures.at(3_000))).toBe(false)
      expect(yield* repo.findById(platform.id, request.id)).toEqual(Option.some(consumedAt(request, 2_000)))
      const unknown = WalletFixtures.signedRequest({ accountId: request.accountId }).id
      expect(yield* repo.consume(platform.id, unknown, Fixtures.at(2_000))).toBe(false)
    })
  )

  it.effect("lets exactly one of 64 concurrent consumers of one request consume it", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const request = WalletFixtures.signedRequest({ accountId: WalletFixtures.walletId() })
      yield* repo.insert(platform.id, request)
      const consumed = yield* Effect.all(
        Array.from({ length: 64 }, () => repo.consume(platform.id, request.id, Fixtures.at(1_000))),
        { concurrency: "unbounded" }
      )
      expect(consumed.filter((each) => each)).toHaveLength(1)
      expect(yield* repo.findById(platform.id, request.id)).toEqual(Option.some(consumedAt(request, 1_000)))
    })
  )

  it.effect("leaves a request unconsumed when the unit of work that consumed it fails", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const request = WalletFixtures.signedRequest({ accountId: WalletFixtures.walletId() })
      yield* repo.insert(platform.id, request)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.flatMap(repo.consume(platform.id, request.id, Fixtures.at(1_000)), (consumed) =>
            Effect.fail({ consumed })
          )
        )
      )
      expect(failed).toEqual(Either.left({ consumed: true }))
      expect(yield* repo.findById(platform.id, request.id)).toEqual(Option.some(request))
      expect(yield* store.transaction(repo.consume(platform.id, request.id, Fixtures.at(2_000)))).toBe(true)
      expect(yield* repo.findById(platform.id, request.id)).toEqual(Option.some(consumedAt(request, 2_000)))
    })
  )

  it.effect("purges requests expired before a time, earliest first, at most `limit` per call, any platform", () =>
    Effect.gen(function* () {
      const repo = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      // Expiring a decade before the other tests' requests: only this test's are purged.
      const base = -10 * 365 * 24 * 3_600_000
      const expiring = (offsetMillis: number) =>
        WalletFixtures.signedRequest({ accountId, offsetMillis: base + offsetMillis, lifetimeMillis: 1_000 })
      const expired = [5, 1, 3, 2, 4].map((offset) => expiring(offset * 10))
      const atCutoff = expiring(100)
      const later = expiring(200)
      for (const [index, request] of [...expired, atCutoff, later].entries()) {
        yield* repo.insert(index % 2 === 0 ? platform.id : other.id, request)
      }
      const cutoff = Fixtures.at(base + 100 + 1_000)
      const remaining = Effect.forEach([...expired, atCutoff, later], (request) =>
        Effect.map(
          Effect.all([repo.findById(platform.id, request.id), repo.findById(other.id, request.id)]),
          ([mine, theirs]) => Option.isSome(mine) || Option.isSome(theirs)
        )
      )
      expect(yield* repo.purgeExpired(cutoff, 0)).toBe(0)
      expect(yield* repo.purgeExpired(cutoff, 3)).toBe(3)
      // The three that expired earliest (offsets 10, 20, 30) are gone.
      expect(yield* remaining).toEqual([true, false, false, false, true, true, true])
      expect(yield* repo.purgeExpired(cutoff, 10)).toBe(2)
      expect(yield* repo.purgeExpired(cutoff, 10)).toBe(0)
      expect(yield* remaining).toEqual([false, false, false, false, false, true, true])
    })
  )
}
