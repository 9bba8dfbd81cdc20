import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Page, type Platform, Transaction, TransactionRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as PaymentFixtures from "./PaymentFixtures.js"

type Filter = Omit<TransactionRepo.TransactionFilter, "sortOrder">

const orders = ["desc", "asc"] as const

// Every page of a transaction list, `limit` rows at a time, with the invariants of each page checked.
const listed = (
  platformId: Platform.PlatformId,
  filter: TransactionRepo.TransactionFilter,
  limit: number,
  between?: (pageNumber: number) => Effect.Effect<void, unknown, TransactionRepo.TransactionRepo>
) =>
  Effect.gen(function* () {
    const repo = yield* TransactionRepo.TransactionRepo
    const pages = yield* PaymentFixtures.allPages(
      (page) => repo.list(platformId, filter, page),
      limit,
      between === undefined ? undefined : (pageNumber) => Effect.orDie(between(pageNumber))
    )
    for (const page of pages) {
      expect(page).not.toHaveProperty("totalCount")
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
    }
    return pages
  })

const idsOfPages = (pages: PaymentFixtures.Pages<Transaction.Transaction>) =>
  pages.flatMap((page) => PaymentFixtures.idsOf(page.data))

const uma = (umaAddress: string) => ({ destinationType: "UMA_ADDRESS", umaAddress }) as const
const from = (accountId: string) => ({ sourceType: "ACCOUNT", accountId }) as const
const to = (accountId: string) => ({ destinationType: "ACCOUNT", accountId }) as const

/**
 * Transaction lists: every filter alone and combined, in both orders, in pages of two (so the cursor carries the
 * filter's position); keyset pages through many rows while rows are added; and cursors read in the other order.
 */
export const register = (it: Methods) => {
  it.effect("filters by every field, sender or receiver alike, in both orders and in pages of any size", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const ada = `Customer:${globalThis.crypto.randomUUID()}`
      const alan = `Customer:${globalThis.crypto.randomUUID()}`
      const adaAccount = PaymentFixtures.accountId()
      const alanAccount = PaymentFixtures.accountId()
      const external = `ExternalAccount:${globalThis.crypto.randomUUID()}`
      const bob = `$bob.${globalThis.crypto.randomUUID().slice(0, 8)}@uma.example`
      const reference = `REF-${globalThis.crypto.randomUUID()}`
      const t1 = PaymentFixtures.transaction({
        customerId: ada,
        platformCustomerId: "pc-ada",
        status: "COMPLETED",
        source: from(adaAccount),
        destination: to(external),
        reference,
        offsetMillis: 1_000
      })
      const t2 = PaymentFixtures.transaction({
        customerId: ada,
        type: "INCOMING",
        status: "PROCESSING",
        source: { sourceType: "UMA_ADDRESS", umaAddress: bob },
        destination: to(adaAccount),
        offsetMillis: 2_000
      })
      const t3 = PaymentFixtures.transaction({
        customerId: alan,
        platformCustomerId: "pc-alan",
        status: "FAILED",
        source: from(alanAccount),
        destination: uma(bob),
        reference: `REF-${globalThis.crypto.randomUUID()}`,
        offsetMillis: 3_000
      })
      const t4 = PaymentFixtures.transaction({
        customerId: alan,
        platformCustomerId: "pc-alan",
        type: "INCOMING",
        source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
        destination: to(alanAccount),
        offsetMillis: 4_000
      })
      // Between two accounts of one customer: found once by either account.
      const t5 = PaymentFixtures.transaction({
        customerId: ada,
        platformCustomerId: "pc-ada",
        status: "COMPLETED",
        source: from(adaAccount),
        destination: to(adaAccount),
        offsetMillis: 5_000
      })
      const t6 = PaymentFixtures.transaction({
        customerId: alan,
        status: "COMPLETED",
        source: from(alanAccount),
        destination: to(external),
        reference,
        offsetMillis: 5_000
      })
      yield* PaymentFixtures.insertTransactions(platform.id, [t4, t1, t6, t3, t5, t2])
      // The same customers, accounts and reference on another platform are never listed.
      yield* PaymentFixtures.insertTransactions(other.id, [
        PaymentFixtures.transaction({
          customerId: ada,
          platformCustomerId: "pc-ada",
          status: "COMPLETED",
          source: from(adaAccount),
          destination: to(alanAccount),
          reference,
          offsetMillis: 3_500
        })
      ])

      const cases: ReadonlyArray<readonly [Filter, ReadonlyArray<Transaction.Transaction>]> = [
        [{}, [t1, t2, t3, t4, t5, t6]],
        [{ customerId: ada }, [t1, t2, t5]],
        [{ platformCustomerId: "pc-ada" }, [t1, t5]],
        [{ platformCustomerId: "pc-nobody" }, []],
        [{ accountIdentifier: adaAccount }, [t1, t2, t5]],
        [{ accountIdentifier: alanAccount }, [t3, t4, t6]],
        [{ accountIdentifier: bob }, [t2, t3]],
        [{ accountIdentifier: external }, [t1, t6]],
        [{ senderAccountIdentifier: adaAccount }, [t1, t5]],
        [{ senderAccountIdentifier: bob }, [t2]],
        [{ receiverAccountIdentifier: adaAccount }, [t2, t5]],
        [{ receiverAccountIdentifier: bob }, [t3]],
        [{ senderAccountIdentifier: alanAccount, receiverAccountIdentifier: external }, [t6]],
        [{ status: "COMPLETED" }, [t1, t5, t6]],
        [{ status: "PENDING" }, [t4]],
        [{ status: "REFUNDED" }, []],
        [{ type: "INCOMING" }, [t2, t4]],
        [{ type: "OUTGOING" }, [t1, t3, t5, t6]],
        [{ reference }, [t1, t6]],
        [{ startDate: Fixtures.at(2_000), endDate: Fixtures.at(4_000) }, [t2, t3, t4]],
        [{ startDate: Fixtures.at(5_000) }, [t5, t6]],
        [{ endDate: Fixtures.at(1_000) }, [t1]],
        [{ endDate: Fixtures.at(999) }, []],
        [{ startDate: Fixtures.at(5_000), endDate: Fixtures.at(5_000) }, [t5, t6]],
        [{ customerId: ada, status: "COMPLETED", accountIdentifier: adaAccount }, [t1, t5]],
        [{ accountIdentifier: adaAccount, type: "INCOMING" }, [t2]],
        [{ accountIdentifier: alanAccount, startDate: Fixtures.at(3_500) }, [t4, t6]],
        [{ accountIdentifier: external, reference, endDate: Fixtures.at(4_999) }, [t1]],
        [{ accountIdentifier: bob, senderAccountIdentifier: alanAccount }, [t3]],
        [{ customerId: alan, platformCustomerId: "pc-alan", type: "INCOMING", status: "PENDING" }, [t4]],
        [{ customerId: ada, reference }, [t1]],
        // No stored text holds NUL (PostgreSQL's cannot): such a value matches nothing, and fails nothing.
        [{ accountIdentifier: `${adaAccount}\u0000` }, []],
        [{ customerId: ada, reference: "\u0000" }, []]
      ]
      for (const [filter, expected] of cases) {
        for (const sortOrder of orders) {
          const want = PaymentFixtures.idsOf(PaymentFixtures.sorted(expected, sortOrder))
          for (const limit of [2, 100]) {
            const pages = yield* listed(platform.id, { ...filter, sortOrder }, limit)
            expect(idsOfPages(pages), JSON.stringify({ filter, sortOrder, limit })).toEqual(want)
          }
        }
      }
    })
  )

  it.effect("pages through many rows in either order: none twice, none lost, new rows shift no page", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const account = PaymentFixtures.accountId()
      const customerId = `Customer:${globalThis.crypto.randomUUID()}`
      // Groups of three share an instant, so the id orders them; the account sends, receives, or both.
      const records = Array.from({ length: 60 }, (_, index) =>
        PaymentFixtures.transaction({
          customerId,
          offsetMillis: Math.floor(index / 3) * 1_000,
          source: from(index % 3 === 1 ? PaymentFixtures.accountId() : account),
          destination: to(index % 3 === 0 ? PaymentFixtures.accountId() : account)
        })
      )
      const unrelated = Array.from({ length: 10 }, (_, index) =>
        PaymentFixtures.transaction({ customerId, offsetMillis: index * 1_500 })
      )
      yield* PaymentFixtures.insertTransactions(platform.id, [...records, ...unrelated])
      const added: Array<Transaction.Transaction> = []
      // A payment made while a client pages: later than every row listed so far.
      const addOne = () => {
        const record = PaymentFixtures.transaction({
          customerId,
          offsetMillis: 1_000_000 + added.length,
          source: from(account)
        })
        added.push(record)
        return PaymentFixtures.insertTransactions(platform.id, [record])
      }
      for (const filter of [{ accountIdentifier: account }, { customerId }]) {
        // The rows added while the previous filter was paged match this one too.
        const all = "customerId" in filter ? [...records, ...unrelated, ...added] : [...records, ...added]
        const start = added.length
        const newest = yield* listed(platform.id, { ...filter, sortOrder: "desc" }, 7, addOne)
        expect(newest.slice(0, -1).every((page) => page.data.length === 7 && page.hasMore)).toBe(true)
        expect(idsOfPages(newest)).toEqual(PaymentFixtures.idsOf(PaymentFixtures.sorted(all, "desc")))

        // Oldest first, rows added meanwhile come after all the others, each once: all but the one added after
        // the last page.
        const before = added.length
        const oldest = yield* listed(platform.id, { ...filter, sortOrder: "asc" }, 7, addOne)
        const expected = PaymentFixtures.sorted([...all, ...added.slice(start, before)], "asc")
        expect(idsOfPages(oldest)).toEqual([
          ...PaymentFixtures.idsOf(expected),
          ...PaymentFixtures.idsOf(added.slice(before, -1))
        ])
      }
    })
  )

  it.effect("reads a cursor of one order in the other as a position: the rows beyond it in that order", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const account = PaymentFixtures.accountId()
      const records = Array.from({ length: 12 }, (_, index) =>
        PaymentFixtures.transaction({ offsetMillis: Math.floor(index / 2) * 1_000, destination: to(account) })
      )
      yield* PaymentFixtures.insertTransactions(platform.id, records)
      const newestFirst = PaymentFixtures.sorted(records, "desc")
      for (const filter of [{}, { accountIdentifier: account }]) {
        const first = yield* repo.list(
          platform.id,
          { ...filter, sortOrder: "desc" },
          { limit: 5, after: Option.none() }
        )
        expect(first.data).toEqual(newestFirst.slice(0, 5))
        const cursor = yield* Page.decodeCursor(first.nextCursor ?? "")
        const turned = yield* repo.list(
          platform.id,
          { ...filter, sortOrder: "asc" },
          { limit: 100, after: Option.some(cursor) }
        )
        expect(turned).toEqual({ data: newestFirst.slice(0, 4).reverse(), hasMore: false })

        const ascending = yield* repo.list(
          platform.id,
          { ...filter, sortOrder: "asc" },
          { limit: 3, after: Option.none() }
        )
        const back = yield* Page.decodeCursor(ascending.nextCursor ?? "")
        const descending = yield* repo.list(
          platform.id,
          { ...filter, sortOrder: "desc" },
          { limit: 100, after: Option.some(back) }
        )
        expect(descending).toEqual({ data: newestFirst.slice(-2), hasMore: false })
      }
    })
  )
}
