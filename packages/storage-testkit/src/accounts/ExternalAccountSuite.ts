import { expect } from "@effect/vitest"
import { Effect, Either, Option, Schema } from "effect"
import { ExternalAccount, ExternalAccountRepo, Page, PaymentRails, UnitOfWork } from "@payrail/core"
import * as AccountFixtures from "./AccountFixtures.js"
import * as ExternalAccountRaces from "./ExternalAccountRaces.js"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

const idsOf = (accounts: ReadonlyArray<{ readonly id: string }>) => accounts.map((account) => account.id)

/**
 * External accounts: scoping per platform, uniqueness among live accounts, soft deletion, guarded transitions,
 * filters, keyset pages and counts that follow inserts, deletes and rolled-back units of work; then the races.
 */
export const register = (it: Methods) => {
  it.effect("finds an external account only within its own platform, every field intact", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const bank = AccountFixtures.externalAccount({ customerId: AccountFixtures.customerId(), offsetMillis: 1_234 })
      const wallet = AccountFixtures.externalAccount({
        accountInfo: AccountFixtures.evmWalletInfo(),
        status: "PENDING"
      })
      yield* AccountFixtures.insert(mine.id, bank)
      yield* AccountFixtures.insert(mine.id, wallet)
      expect(yield* repo.findById(mine.id, bank.id)).toEqual(Option.some(bank))
      expect(yield* repo.findById(mine.id, wallet.id)).toEqual(Option.some(wallet))
      expect(yield* repo.findById(other.id, bank.id)).toEqual(Option.none())
      expect(yield* repo.list(other.id, { owner: "customers" }, firstPage(10))).toEqual({
        data: [],
        hasMore: false,
        totalCount: 0
      })
      expect(yield* repo.delete(other.id, bank.id)).toBe(false)
      expect(yield* repo.transition(other.id, bank.id, "ACTIVE", bank)).toBe(false)
    })
  )

  it.effect("refuses a second live account of one owner with the same account type and identifier", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const info = AccountFixtures.usdAccountInfo("123456789")
      yield* AccountFixtures.insert(platform.id, AccountFixtures.externalAccount({ customerId, accountInfo: info }))
      const duplicate = yield* Effect.either(
        AccountFixtures.insert(platform.id, AccountFixtures.externalAccount({ customerId, accountInfo: info }))
      )
      expect(Either.isLeft(duplicate) && duplicate.left._tag).toBe("ExternalAccountExists")
      // Other owners, the platform itself and other platforms may hold the same destination.
      yield* AccountFixtures.insert(
        platform.id,
        AccountFixtures.externalAccount({ customerId: AccountFixtures.customerId(), accountInfo: info })
      )
      yield* AccountFixtures.insert(platform.id, AccountFixtures.externalAccount({ accountInfo: info }))
      yield* AccountFixtures.insert(other.id, AccountFixtures.externalAccount({ customerId, accountInfo: info }))
      expect((yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).totalCount).toBe(1)
    })
  )

  it.effect("deletes softly: once, never found nor listed again, and the destination may be added again", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const account = AccountFixtures.externalAccount({ customerId, offsetMillis: 1_000 })
      const kept = AccountFixtures.externalAccount({ customerId })
      yield* AccountFixtures.insert(platform.id, account)
      yield* AccountFixtures.insert(platform.id, kept)
      expect(yield* repo.delete(platform.id, account.id)).toBe(true)
      expect(yield* repo.delete(platform.id, account.id)).toBe(false)
      expect(yield* repo.findById(platform.id, account.id)).toEqual(Option.none())
      expect(yield* repo.transition(platform.id, account.id, "ACTIVE", account)).toBe(false)
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).toEqual({
        ids: [kept.id],
        totalCount: 1
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers" })).toEqual({
        ids: [kept.id],
        totalCount: 1
      })

      const again = AccountFixtures.externalAccount({
        customerId,
        accountInfo: account.accountInfo,
        offsetMillis: 2_000
      })
      yield* AccountFixtures.insert(platform.id, again)
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).toEqual({
        ids: [again.id, kept.id],
        totalCount: 2
      })
    })
  )

  it.effect("transitions only from the expected status, keeping the stored default flag", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const account = AccountFixtures.externalAccount({ customerId, status: "PENDING", defaultUmaDepositAccount: true })
      yield* AccountFixtures.insert(platform.id, account)
      const successor = AccountFixtures.externalAccount({
        customerId,
        defaultUmaDepositAccount: true,
        offsetMillis: 500
      })
      yield* AccountFixtures.insert(platform.id, successor)
      // `next` was built from a read taken before the successor became the default.
      const next = new ExternalAccount.ExternalAccount({ ...account, status: "ACTIVE", updatedAt: Fixtures.at(1_000) })
      expect(yield* repo.transition(platform.id, account.id, "ACTIVE", next)).toBe(false)
      expect(yield* repo.transition(platform.id, account.id, "PENDING", next)).toBe(true)
      expect(yield* repo.transition(platform.id, account.id, "PENDING", next)).toBe(false)
      const stored = new ExternalAccount.ExternalAccount({ ...next, defaultUmaDepositAccount: false })
      expect(yield* repo.findById(platform.id, account.id)).toEqual(Option.some(stored))
    })
  )

  it.effect("filters by owner, customer and currency, with the matching total count", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const ada = AccountFixtures.customerId()
      const alan = AccountFixtures.customerId()
      const adaUsd = AccountFixtures.externalAccount({ customerId: ada, offsetMillis: 1_000 })
      const adaWallet = AccountFixtures.externalAccount({
        customerId: ada,
        accountInfo: AccountFixtures.evmWalletInfo(),
        offsetMillis: 2_000
      })
      const alanUsd = AccountFixtures.externalAccount({ customerId: alan, offsetMillis: 3_000 })
      const platformUsd = AccountFixtures.externalAccount({ offsetMillis: 4_000 })
      const platformWallet = AccountFixtures.externalAccount({
        accountInfo: AccountFixtures.evmWalletInfo(),
        offsetMillis: 5_000
      })
      for (const account of [adaUsd, adaWallet, alanUsd, platformUsd, platformWallet])
        yield* AccountFixtures.insert(platform.id, account)

      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers" })).toEqual({
        ids: idsOf([alanUsd, adaWallet, adaUsd]),
        totalCount: 3
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "platform" })).toEqual({
        ids: idsOf([platformWallet, platformUsd]),
        totalCount: 2
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId: ada })).toEqual({
        ids: idsOf([adaWallet, adaUsd]),
        totalCount: 2
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", currency: "USD" })).toEqual({
        ids: idsOf([alanUsd, adaUsd]),
        totalCount: 2
      })
      expect(
        yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId: ada, currency: "USDC" })
      ).toEqual({
        ids: [adaWallet.id],
        totalCount: 1
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "platform", currency: "USDC" })).toEqual({
        ids: [platformWallet.id],
        totalCount: 1
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", currency: "EUR" })).toEqual({
        ids: [],
        totalCount: 0
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "platform", customerId: ada })).toEqual({
        ids: [],
        totalCount: 0
      })
    })
  )

  it.effect("pages newest first by (createdAt, id) without gaps or repeats, with the total count", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      // Pairs share a creation instant, so the id decides their order.
      const accounts = Array.from({ length: 7 }, (_, index) =>
        AccountFixtures.externalAccount({
          customerId: AccountFixtures.customerId(),
          offsetMillis: Math.floor(index / 2) * 1000
        })
      )
      for (const account of accounts) yield* AccountFixtures.insert(platform.id, account)
      const seen: Array<string> = []
      let request = firstPage(3)
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const page = yield* repo.list(platform.id, { owner: "customers" }, request)
        expect(page.totalCount).toBe(7)
        expect(page.hasMore).toBe(pageNumber < 2)
        expect(page.nextCursor !== undefined).toBe(page.hasMore)
        seen.push(...idsOf(page.data))
        if (page.nextCursor !== undefined)
          request = { limit: 3, after: Option.some(yield* Page.decodeCursor(page.nextCursor)) }
      }
      expect(seen).toEqual(idsOf([...accounts].sort((a, b) => Page.compareNewestFirst(a, b))))
    })
  )

  it.effect("keeps counts with the rows when a unit of work rolls back an insert or a delete", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const kept = AccountFixtures.externalAccount({ customerId })
      yield* AccountFixtures.insert(platform.id, kept)
      const rolledBack = AccountFixtures.externalAccount({ customerId })
      const failed = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* AccountFixtures.insert(platform.id, rolledBack)
            expect(yield* repo.delete(platform.id, kept.id)).toBe(true)
            expect((yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).totalCount).toBe(1)
            return yield* Effect.fail("abandoned" as const)
          })
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(platform.id, rolledBack.id)).toEqual(Option.none())
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers", customerId })).toEqual({
        ids: [kept.id],
        totalCount: 1
      })
      expect(yield* AccountFixtures.listed(platform.id, { owner: "customers" })).toEqual({
        ids: [kept.id],
        totalCount: 1
      })
    })
  )

  it.effect("stores and reads back an account decoded from a record written before paymentRails existed", () =>
    Effect.gen(function* () {
      const repo = yield* ExternalAccountRepo.ExternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const account = AccountFixtures.externalAccount({ customerId: AccountFixtures.customerId() })
      const written = JSON.stringify(Schema.encodeSync(ExternalAccount.ExternalAccount)(account))
      const legacy = JSON.parse(written, (key, value: unknown) => (key === "paymentRails" ? undefined : value))
      expect(legacy.accountInfo).not.toHaveProperty("paymentRails")
      const decoded = Schema.decodeUnknownSync(ExternalAccount.ExternalAccount)(legacy)
      yield* AccountFixtures.insert(platform.id, decoded)
      const found = yield* repo.findById(platform.id, account.id)
      expect(found).toEqual(Option.some(account))
      expect(
        Option.map(found, (read) => ("paymentRails" in read.accountInfo ? read.accountInfo.paymentRails : undefined))
      ).toEqual(Option.some(PaymentRails.railsOf("USD_ACCOUNT")))
    })
  )

  ExternalAccountRaces.register(it)
}
