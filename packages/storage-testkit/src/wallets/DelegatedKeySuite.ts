import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { DelegatedKey, DelegatedKeyRepo, InternalAccount, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const uuid = () => globalThis.crypto.randomUUID()

const wallet = () => InternalAccount.InternalAccountId.make(`InternalAccount:${uuid()}`)

const key = (accountId: InternalAccount.InternalAccountId, offsetMillis: number, cardId?: string) =>
  new DelegatedKey.DelegatedKey({
    id: DelegatedKey.DelegatedKeyId.make(`DelegatedKey:${uuid()}`),
    accountId,
    ...(cardId === undefined ? {} : { cardId }),
    publicKey: `02${"ab".repeat(32)}`,
    nickname: "conformance",
    status: "ACTIVE",
    scopes: ["EXECUTE_QUOTE"],
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis)
  })

/**
 * Delegated keys: found and listed (oldest first, by wallet and by card) as inserted, scoped to the platform; one
 * live key per wallet and card (exactly one of 20 concurrent inserts wins; a revoked one frees the slot); revoked
 * once, and no longer a signer; an insert rolled back with its unit of work leaves nothing.
 */
export const register = (it: Methods) => {
  it.effect("finds and lists keys as inserted, oldest first, by wallet and card, never another platform's", () =>
    Effect.gen(function* () {
      const repo = yield* DelegatedKeyRepo.DelegatedKeyRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const account = wallet()
      const late = key(account, 2_000)
      const early = key(account, 1_000, "Card:1")
      expect(yield* repo.insert(platform.id, late)).toBe(true)
      expect(yield* repo.insert(platform.id, early)).toBe(true)
      expect(yield* repo.findById(platform.id, late.id)).toEqual(Option.some(late))
      expect(yield* repo.findById(other.id, late.id)).toEqual(Option.none())
      expect(yield* repo.list(platform.id, { accountId: account })).toEqual([early, late])
      expect(yield* repo.list(platform.id, { cardId: "Card:1" })).toEqual([early])
      expect(yield* repo.list(platform.id, { accountId: account, cardId: "Card:2" })).toEqual([])
      expect(yield* repo.list(other.id, { accountId: account })).toEqual([])
      expect(yield* repo.listSigners(platform.id, account)).toEqual([early, late])
    })
  )

  it.effect("keeps one live key per wallet and card: one of 20 concurrent inserts wins, a revocation frees it", () =>
    Effect.gen(function* () {
      const repo = yield* DelegatedKeyRepo.DelegatedKeyRepo
      const platform = yield* Fixtures.insertPlatform
      const account = wallet()
      const inserted = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) => repo.insert(platform.id, key(account, index))),
        { concurrency: "unbounded" }
      )
      expect(inserted.filter((won) => won)).toHaveLength(1)
      const [live] = yield* repo.list(platform.id, { accountId: account })
      expect(yield* repo.insert(platform.id, key(account, 50, "Card:9"))).toBe(true)

      const revoked = yield* repo.revoke(platform.id, live!.id, Fixtures.at(100))
      expect(Option.map(revoked, (found) => [found.status, found.updatedAt])).toEqual(
        Option.some(["REVOKED", Fixtures.at(100)])
      )
      expect(yield* repo.revoke(platform.id, live!.id, Fixtures.at(200))).toEqual(Option.none())
      expect(yield* repo.findById(platform.id, live!.id)).toEqual(revoked)
      expect((yield* repo.listSigners(platform.id, account)).map((found) => found.cardId)).toEqual(["Card:9"])
      expect(yield* repo.insert(platform.id, key(account, 300))).toBe(true)
    })
  )

  it.effect("revokes only the platform's keys, and an insert rolled back leaves nothing", () =>
    Effect.gen(function* () {
      const repo = yield* DelegatedKeyRepo.DelegatedKeyRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const account = wallet()
      const mine = key(account, 0)
      yield* repo.insert(platform.id, mine)
      expect(yield* repo.revoke(other.id, mine.id, Fixtures.at(1))).toEqual(Option.none())
      expect(Option.map(yield* repo.findById(platform.id, mine.id), (found) => found.status)).toEqual(
        Option.some("ACTIVE")
      )
      const second = key(wallet(), 0)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.insert(platform.id, second), Effect.fail("undo")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.findById(platform.id, second.id)).toEqual(Option.none())
      expect(yield* repo.insert(platform.id, second)).toBe(true)
    })
  )
}
