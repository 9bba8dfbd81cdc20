import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { ExternalAccount, ExternalAccountRepo } from "@payrail/core"
import * as AccountFixtures from "./AccountFixtures.js"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

/** External accounts: the default UMA deposit account per owner, and races on inserts, transitions and deletes. */
export const register = (it: Methods) => {
  it.effect("moves the default UMA deposit account to a new default of the same owner only", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const first = AccountFixtures.externalAccount({ customerId, defaultUmaDepositAccount: true })
      const neighbour = AccountFixtures.externalAccount({
        customerId: AccountFixtures.customerId(),
        defaultUmaDepositAccount: true
      })
      const platformDefault = AccountFixtures.externalAccount({ defaultUmaDepositAccount: true })
      for (const account of [first, neighbour, platformDefault]) yield* AccountFixtures.insert(platform.id, account)
      const plain = AccountFixtures.externalAccount({ customerId, offsetMillis: 1_000 })
      yield* AccountFixtures.insert(platform.id, plain)
      expect(
        Option.map(yield* repo.findById(platform.id, first.id), (found) => found.defaultUmaDepositAccount)
      ).toEqual(Option.some(true))

      const second = AccountFixtures.externalAccount({
        customerId,
        defaultUmaDepositAccount: true,
        offsetMillis: 2_000
      })
      yield* AccountFixtures.insert(platform.id, second)
      const cleared = new ExternalAccount.ExternalAccount({
        ...first,
        defaultUmaDepositAccount: false,
        updatedAt: second.updatedAt
      })
      expect(yield* repo.findById(platform.id, first.id)).toEqual(Option.some(cleared))
      expect(yield* repo.findById(platform.id, second.id)).toEqual(Option.some(second))
      expect(yield* repo.findById(platform.id, plain.id)).toEqual(Option.some(plain))
      expect(yield* repo.findById(platform.id, neighbour.id)).toEqual(Option.some(neighbour))
      expect(yield* repo.findById(platform.id, platformDefault.id)).toEqual(Option.some(platformDefault))

      // A refused insert changes nothing: the current default keeps its flag.
      const duplicate = AccountFixtures.externalAccount({
        customerId,
        accountInfo: plain.accountInfo,
        defaultUmaDepositAccount: true
      })
      const refused = yield* Effect.either(AccountFixtures.insert(platform.id, duplicate))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("ExternalAccountExists")
      expect(yield* repo.findById(platform.id, second.id)).toEqual(Option.some(second))

      // A deleted default is no longer the default; a new one needs nothing cleared.
      expect(yield* repo.delete(platform.id, second.id)).toBe(true)
      const third = AccountFixtures.externalAccount({ customerId, defaultUmaDepositAccount: true, offsetMillis: 3_000 })
      yield* AccountFixtures.insert(platform.id, third)
      expect(yield* repo.findById(platform.id, third.id)).toEqual(Option.some(third))
    })
  )

  it.effect("lets exactly one of 20 concurrent inserts of one destination win", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const accountInfo = AccountFixtures.usdAccountInfo()
      const results = yield* concurrently(
        Array.from({ length: 20 }, () =>
          Effect.either(
            AccountFixtures.insert(platform.id, AccountFixtures.externalAccount({ customerId, accountInfo }))
          )
        )
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual(
        Array.from({ length: 19 }, () => "ExternalAccountExists")
      )
      expect((yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).totalCount).toBe(1)
    })
  )

  it.effect("accepts 20 concurrent default inserts for one customer and leaves exactly one default", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const accounts = Array.from({ length: 20 }, (_, index) =>
        AccountFixtures.externalAccount({ customerId, defaultUmaDepositAccount: true, offsetMillis: index })
      )
      yield* concurrently(accounts.map((account) => AccountFixtures.insert(platform.id, account)))
      const page = yield* repo.list(
        platform.id,
        { owner: "customers", customerId },
        { limit: 100, after: Option.none() }
      )
      expect(page.totalCount).toBe(20)
      expect(page.data).toHaveLength(20)
      expect(page.data.filter((account) => account.defaultUmaDepositAccount)).toHaveLength(1)
    })
  )

  it.effect("lets exactly one of 10 concurrent transitions from one status apply", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const account = AccountFixtures.externalAccount({ customerId: AccountFixtures.customerId() })
      yield* AccountFixtures.insert(platform.id, account)
      const statuses = ["INACTIVE", "UNDER_REVIEW"] as const
      const applied = yield* concurrently(
        Array.from({ length: 10 }, (_, index) =>
          repo.transition(
            platform.id,
            account.id,
            "ACTIVE",
            new ExternalAccount.ExternalAccount({ ...account, status: statuses[index % 2] ?? "INACTIVE" })
          )
        )
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const stored = yield* repo.findById(platform.id, account.id)
      expect(Option.map(stored, (found) => found.status === "ACTIVE")).toEqual(Option.some(false))
    })
  )

  it.effect("lets exactly one of 10 concurrent deletes of one account succeed, counting it once", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const account = AccountFixtures.externalAccount({ customerId })
      const kept = AccountFixtures.externalAccount({ customerId })
      yield* AccountFixtures.insert(platform.id, account)
      yield* AccountFixtures.insert(platform.id, kept)
      const deleted = yield* concurrently(Array.from({ length: 10 }, () => repo.delete(platform.id, account.id)))
      expect(deleted.filter(Boolean)).toHaveLength(1)
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).toEqual({
        ids: [kept.id],
        totalCount: 1
      })
      expect((yield* AccountFixtures.listed(platform.id, { owner: "customers" })).totalCount).toBe(1)
    })
  )
}
