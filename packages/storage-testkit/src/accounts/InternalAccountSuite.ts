import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AuthMethodRepo, InternalAccount, InternalAccountRepo, Page, UnitOfWork } from "@payrail/core"
import * as AccountFixtures from "./AccountFixtures.js"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

const idsOf = (accounts: ReadonlyArray<{ readonly id: string }>) => accounts.map((account) => account.id)

const newestFirst = (accounts: ReadonlyArray<InternalAccount.InternalAccount>) =>
  idsOf([...accounts].sort((a, b) => Page.compareNewestFirst(a, b)))

/** Internal accounts and their auth methods: scoping per platform, owner and field filters, keyset pages. */
export const register = (it: Methods) => {
  it.effect("finds an internal account only within its own platform, every field intact", () =>
    Effect.gen(function* () {
      const repo = yield* InternalAccountRepo.InternalAccountRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = AccountFixtures.internalAccount({
        customerId: AccountFixtures.customerId(),
        type: "EMBEDDED_WALLET",
        currency: "USDC",
        offsetMillis: 1_234
      })
      yield* repo.insert(mine.id, wallet)
      expect(yield* repo.findById(mine.id, wallet.id)).toEqual(Option.some(wallet))
      expect(yield* repo.findById(other.id, wallet.id)).toEqual(Option.none())
      const elsewhere = yield* repo.list(other.id, { owner: "customers" }, firstPage(10))
      expect(elsewhere).toEqual({ data: [], hasMore: false, totalCount: 0 })
    })
  )

  it.effect("filters by owner, customer, type and currency, with the matching total count", () =>
    Effect.gen(function* () {
      const repo = yield* InternalAccountRepo.InternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const ada = AccountFixtures.customerId()
      const alan = AccountFixtures.customerId()
      const adaUsd = AccountFixtures.internalAccount({ customerId: ada, offsetMillis: 1_000 })
      const adaWallet = AccountFixtures.internalAccount({
        customerId: ada,
        type: "EMBEDDED_WALLET",
        currency: "USDC",
        offsetMillis: 2_000
      })
      const alanEur = AccountFixtures.internalAccount({ customerId: alan, currency: "EUR", offsetMillis: 3_000 })
      const platformUsd = AccountFixtures.internalAccount({ offsetMillis: 4_000 })
      const platformCrypto = AccountFixtures.internalAccount({
        type: "INTERNAL_CRYPTO",
        currency: "USDC",
        offsetMillis: 5_000
      })
      for (const account of [adaUsd, adaWallet, alanEur, platformUsd, platformCrypto])
        yield* repo.insert(platform.id, account)
      const list = (filter: InternalAccountRepo.InternalAccountFilter) =>
        Effect.map(repo.list(platform.id, filter, firstPage(100)), (page) => ({
          ids: idsOf(page.data),
          totalCount: page.totalCount
        }))

      expect(yield* list({ owner: "customers" })).toEqual({ ids: idsOf([alanEur, adaWallet, adaUsd]), totalCount: 3 })
      expect(yield* list({ owner: "platform" })).toEqual({ ids: idsOf([platformCrypto, platformUsd]), totalCount: 2 })
      expect(yield* list({ owner: "customers", customerId: ada })).toEqual({
        ids: idsOf([adaWallet, adaUsd]),
        totalCount: 2
      })
      expect(yield* list({ owner: "customers", type: "EMBEDDED_WALLET" })).toEqual({
        ids: [adaWallet.id],
        totalCount: 1
      })
      expect(yield* list({ owner: "customers", currency: "EUR" })).toEqual({ ids: [alanEur.id], totalCount: 1 })
      expect(yield* list({ owner: "platform", currency: "USDC", type: "INTERNAL_CRYPTO" })).toEqual({
        ids: [platformCrypto.id],
        totalCount: 1
      })
      expect(yield* list({ owner: "customers", customerId: alan, currency: "USD" })).toEqual({ ids: [], totalCount: 0 })
      expect(yield* list({ owner: "platform", customerId: ada })).toEqual({ ids: [], totalCount: 0 })
    })
  )

  it.effect("pages newest first by (createdAt, id) without gaps or repeats, with the total count", () =>
    Effect.gen(function* () {
      const repo = yield* InternalAccountRepo.InternalAccountRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      // Pairs share a creation instant, so the id decides their order.
      const accounts = Array.from({ length: 7 }, (_, index) =>
        AccountFixtures.internalAccount({ customerId, offsetMillis: Math.floor(index / 2) * 1000 })
      )
      for (const account of accounts) yield* repo.insert(platform.id, account)
      const seen: Array<string> = []
      let request = firstPage(3)
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const page = yield* repo.list(platform.id, { owner: "customers", customerId }, request)
        expect(page.totalCount).toBe(7)
        expect(page.hasMore).toBe(pageNumber < 2)
        expect(page.nextCursor !== undefined).toBe(page.hasMore)
        seen.push(...idsOf(page.data))
        if (page.nextCursor !== undefined)
          request = { limit: 3, after: Option.some(yield* Page.decodeCursor(page.nextCursor)) }
      }
      expect(seen).toEqual(newestFirst(accounts))
    })
  )

  it.effect("inserts several accounts and credentials at once, each found as if inserted alone", () =>
    Effect.gen(function* () {
      const repo = yield* InternalAccountRepo.InternalAccountRepo
      const methods = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const fiat = AccountFixtures.internalAccount({ customerId, currency: "USD", offsetMillis: 5 })
      const wallet = AccountFixtures.internalAccount({
        customerId,
        type: "EMBEDDED_WALLET",
        currency: "USDC",
        offsetMillis: 5
      })
      yield* repo.insertAll(platform.id, [])
      yield* repo.insertAll(platform.id, [fiat, wallet])
      expect(yield* repo.findById(platform.id, fiat.id)).toEqual(Option.some(fiat))
      expect(yield* repo.findById(platform.id, wallet.id)).toEqual(Option.some(wallet))
      const listed = yield* repo.list(platform.id, { owner: "customers", customerId }, firstPage(10))
      expect(idsOf(listed.data)).toEqual(newestFirst([fiat, wallet]))
      expect(listed.totalCount).toBe(2)
      const credentials = [
        AccountFixtures.authMethod(wallet.id, 1_000),
        AccountFixtures.authMethod(wallet.id, 2_000, "SMS_OTP")
      ]
      yield* methods.insertAll(platform.id, [])
      yield* methods.insertAll(platform.id, credentials)
      expect(yield* methods.listByAccount(platform.id, wallet.id)).toEqual(credentials)
    })
  )

  it.effect("sets privateEnabled on an embedded wallet of its platform only, inside a unit of work", () =>
    Effect.gen(function* () {
      const repo = yield* InternalAccountRepo.InternalAccountRepo
      const unitOfWork = yield* UnitOfWork.UnitOfWork
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customerId = AccountFixtures.customerId()
      const wallet = AccountFixtures.internalAccount({ customerId, type: "EMBEDDED_WALLET", currency: "USDC" })
      const fiat = AccountFixtures.internalAccount({ customerId })
      yield* repo.insertAll(mine.id, [wallet, fiat])
      const at = Fixtures.at(60_000)
      const updated = yield* repo.setPrivateEnabled(mine.id, wallet.id, true, at)
      expect(updated).toEqual(
        Option.some(new InternalAccount.InternalAccount({ ...wallet, privateEnabled: true, updatedAt: at }))
      )
      expect(yield* repo.findById(mine.id, wallet.id)).toEqual(updated)
      expect(yield* repo.setPrivateEnabled(other.id, wallet.id, false, at)).toEqual(Option.none())
      expect(yield* repo.setPrivateEnabled(mine.id, fiat.id, true, at)).toEqual(Option.none())
      expect(yield* repo.findById(mine.id, fiat.id)).toEqual(Option.some(fiat))
      // A unit of work that fails after the write leaves the wallet as it was.
      const failed = yield* unitOfWork
        .transaction(Effect.zipRight(repo.setPrivateEnabled(mine.id, wallet.id, false, at), Effect.fail("rolled back")))
        .pipe(Effect.flip)
      expect(failed).toBe("rolled back")
      expect(yield* repo.findById(mine.id, wallet.id)).toEqual(updated)
    })
  )

  it.effect("lists an account's auth methods oldest first, only within its platform and account", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = AccountFixtures.internalAccount({
        customerId: AccountFixtures.customerId(),
        type: "EMBEDDED_WALLET"
      })
      const otherWallet = AccountFixtures.internalAccount({
        customerId: AccountFixtures.customerId(),
        type: "EMBEDDED_WALLET"
      })
      const passkey = AccountFixtures.authMethod(wallet.id, 2_000, "PASSKEY")
      const email = AccountFixtures.authMethod(wallet.id, 1_000)
      const sameInstant = [
        AccountFixtures.authMethod(wallet.id, 3_000, "SMS_OTP"),
        AccountFixtures.authMethod(wallet.id, 3_000, "PASSKEY")
      ]
      for (const method of [passkey, email, ...sameInstant]) yield* repo.insert(platform.id, method)
      yield* repo.insert(platform.id, AccountFixtures.authMethod(otherWallet.id, 0))
      yield* repo.insert(other.id, AccountFixtures.authMethod(wallet.id, 0))

      const listed = yield* repo.listByAccount(platform.id, wallet.id)
      const tied = [...sameInstant].sort((a, b) => (a.id < b.id ? -1 : 1))
      expect(listed).toEqual([email, passkey, ...tied])
      expect(yield* repo.listByAccount(platform.id, AccountFixtures.internalAccount().id)).toEqual([])
    })
  )
}
