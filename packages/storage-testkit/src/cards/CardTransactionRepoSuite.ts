import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { CardTransaction, CardTransactionRepo, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as CardFixtures from "./CardFixtures.js"
import { ordered, pagedIds } from "./KeysetPages.js"

const firstPage = { limit: 100, after: Option.none() }

type Filter = Omit<CardTransaction.CardTransactionFilter, "sortOrder">
type Row = CardTransaction.CardTransaction

// Every page of a card transaction list in both orders, `limit` rows at a time: the ids in each order.
const listed = (platformId: Platform.PlatformId, filter: Filter, limit: number) =>
  Effect.flatMap(CardTransactionRepo.CardTransactionRepo, (repo) =>
    Effect.all({
      desc: pagedIds((page) => repo.list(platformId, { ...filter, sortOrder: "desc" }, page), limit),
      asc: pagedIds((page) => repo.list(platformId, { ...filter, sortOrder: "asc" }, page), limit)
    })
  )

const expected = (rows: ReadonlyArray<CardTransaction.StoredCardTransaction>, keep: (row: Row) => boolean) => {
  const kept = rows.map((stored) => stored.transaction).filter(keep)
  return { desc: ordered(kept, "desc"), asc: ordered(kept, "asc") }
}

const millis = (row: Row) => DateTime.toEpochMillis(row.createdAt) - DateTime.toEpochMillis(Fixtures.at(0))

/**
 * Card transactions: every field round-trips (optional ones and the ledger hold absent and present), scoped to their
 * platform, an id inserted once, replaced only at the version read (one of 20 racers wins), listed by every filter
 * of `GET /transactions` in both orders in keyset pages that neither repeat nor miss a row across equal times.
 */
export const register = (it: Methods) => {
  it.effect("finds a card transaction as inserted, every field, only within its platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* CardTransactionRepo.CardTransactionRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const card = CardFixtures.card(mine.id)
      const full = CardFixtures.cardTransaction(card, { offsetMillis: 1_234 })
      const bare = CardFixtures.cardTransaction(CardFixtures.card(mine.id, { full: false }), { full: false })
      const refund = CardFixtures.cardTransaction(card, {
        overrides: { kind: "RETURN", direction: "CREDIT", status: "SETTLED", settledAmount: CardFixtures.usdAmount(5) }
      })
      for (const stored of [full, bare, refund]) yield* repo.insert(stored)
      for (const stored of [full, bare, refund]) {
        expect(yield* repo.findById(mine.id, stored.transaction.id)).toEqual(Option.some(stored))
        expect(yield* repo.findById(other.id, stored.transaction.id)).toEqual(Option.none())
      }
      expect(Option.map(yield* repo.findById(mine.id, bare.transaction.id), (row) => row.holdPostingId)).toEqual(
        Option.some(undefined)
      )
      expect(yield* repo.findById(mine.id, CardFixtures.cardTransactionId())).toEqual(Option.none())

      const again = yield* Effect.either(
        repo.insert({
          ...full,
          transaction: new CardTransaction.CardTransaction({ ...full.transaction, status: "SETTLED" })
        })
      )
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(mine.id, full.transaction.id)).toEqual(Option.some(full))
    })
  )

  it.effect("updates a card transaction only at the version it read, with its hold and list keys; one of 20 wins", () =>
    Effect.gen(function* () {
      const repo = yield* CardTransactionRepo.CardTransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = CardFixtures.cardTransaction(CardFixtures.card(platform.id))
      yield* repo.insert(stored)
      const settled: CardTransaction.StoredCardTransaction = {
        platformId: stored.platformId,
        version: 2,
        holdAmount: 0,
        transaction: new CardTransaction.CardTransaction({
          ...stored.transaction,
          status: "SETTLED",
          settledAmount: CardFixtures.usdAmount(1_234),
          updatedAt: Fixtures.at(60_000)
        })
      }
      expect(yield* repo.update({ ...settled, platformId: other.id }, 1)).toBe(false)
      expect(yield* repo.update(settled, 2)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.transaction.id)).toEqual(Option.some(stored))
      expect(yield* repo.update(settled, 1)).toBe(true)
      expect(yield* repo.update({ ...settled, holdAmount: 7 }, 1)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.transaction.id)).toEqual(Option.some(settled))
      const statuses = (status: CardTransaction.CardTransactionStatus) =>
        Effect.map(repo.list(platform.id, { status, sortOrder: "desc" }, firstPage), (page) =>
          page.data.map((row) => row.id)
        )
      expect(yield* statuses("SETTLED")).toEqual([stored.transaction.id])
      expect(yield* statuses("AUTHORIZED")).toEqual([])

      const applied = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) =>
          repo.update(
            {
              ...settled,
              version: 3,
              transaction: new CardTransaction.CardTransaction({ ...settled.transaction, status: "REFUNDED" }),
              holdAmount: index
            },
            2
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, stored.transaction.id))
      expect({ version: found.version, holdAmount: found.holdAmount }).toEqual({
        version: 3,
        holdAmount: applied.indexOf(true)
      })
    })
  )

  it.effect("lists card transactions by every filter in both orders, in keyset pages across equal times", () =>
    Effect.gen(function* () {
      const repo = yield* CardTransactionRepo.CardTransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const first = CardFixtures.card(platform.id)
      const second = CardFixtures.card(platform.id, { full: false })
      const statuses = ["AUTHORIZED", "SETTLED", "EXPIRED"] as const
      // Triples share a creation instant, so the id decides their order.
      const rows = Array.from({ length: 11 }, (_, index) =>
        CardFixtures.cardTransaction(index % 2 === 0 ? first : second, {
          offsetMillis: Math.floor(index / 3) * 1_000,
          full: index % 2 === 0,
          overrides: { status: statuses[index % 3] ?? "AUTHORIZED" }
        })
      )
      for (const stored of rows) yield* repo.insert(stored)
      yield* repo.insert(CardFixtures.cardTransaction({ ...first, platformId: other.id }))

      for (const limit of [1, 2, 3, 100]) {
        expect(yield* listed(platform.id, {}, limit)).toEqual(expected(rows, () => true))
      }
      const filters: ReadonlyArray<readonly [Filter, (row: Row) => boolean]> = [
        [{ cardId: first.card.id }, (row) => row.cardId === first.card.id],
        [{ customerId: second.card.customerId }, (row) => row.customerId === second.card.customerId],
        [
          { platformCustomerId: first.card.platformCustomerId },
          (row) => row.platformCustomerId === first.card.platformCustomerId
        ],
        [{ accountId: first.card.fundingSource }, (row) => row.accountId === first.card.fundingSource],
        [{ status: "SETTLED" }, (row) => row.status === "SETTLED"],
        [{ status: "REFUNDED" }, () => false],
        [{ startDate: Fixtures.at(1_000) }, (row) => millis(row) >= 1_000],
        [{ endDate: Fixtures.at(2_000) }, (row) => millis(row) <= 2_000],
        [
          { startDate: Fixtures.at(1_000), endDate: Fixtures.at(2_000), cardId: second.card.id },
          (row) => millis(row) >= 1_000 && millis(row) <= 2_000 && row.cardId === second.card.id
        ],
        [{ cardId: CardFixtures.cardId() }, () => false],
        [{ cardId: "\u0000" }, () => false],
        [{ customerId: "\u0000" }, () => false],
        [{ platformCustomerId: "pc\u0000" }, () => false],
        [{ accountId: "\u0000" }, () => false]
      ]
      for (const [filter, keep] of filters) {
        for (const limit of [1, 2, 100]) expect(yield* listed(platform.id, filter, limit)).toEqual(expected(rows, keep))
      }
    })
  )
}
