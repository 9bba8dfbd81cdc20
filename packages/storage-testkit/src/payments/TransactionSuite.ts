import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Transaction, TransactionRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as PaymentFixtures from "./PaymentFixtures.js"
import * as TransactionListSuite from "./TransactionListSuite.js"
import * as TransactionPostingSuite from "./TransactionPostingSuite.js"

const firstPage = { limit: 100, after: Option.none() }
const newestFirst = { sortOrder: "desc" } as const

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

const uma = (umaAddress: string) => ({ sourceType: "UMA_ADDRESS", umaAddress }) as const

/**
 * Transactions: every field and the posting survive storage, a platform sees only its own, `transition` and
 * `advance` are compare-and-sets that exactly one of many racers wins (`advance` changing the status, its times and
 * the posting alone), and units of work take transactions with them; then the
 * lists (`TransactionListSuite`) and the posted inserts (`TransactionPostingSuite`).
 */
export const register = (it: Methods) => {
  it.effect("finds each transaction as inserted, with its posting, in every source and destination shape", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const records = [
        PaymentFixtures.transaction(),
        PaymentFixtures.fullTransaction({ offsetMillis: 1_234 }),
        PaymentFixtures.transaction({
          type: "INCOMING",
          source: { sourceType: "ACCOUNT", accountId: PaymentFixtures.accountId() },
          destination: {
            destinationType: "ACCOUNT",
            accountId: PaymentFixtures.accountId(),
            currency: "USDC",
            onChainTransaction: { transactionHash: "5Kx…", network: "SOLANA" }
          }
        }),
        PaymentFixtures.fullTransaction({
          source: uma("$zoë@uma.example"),
          destination: { destinationType: "UMA_ADDRESS", umaAddress: "$bob@uma.example" }
        }),
        PaymentFixtures.transaction({
          type: "INCOMING",
          source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
          destination: { destinationType: "UMA_ADDRESS", umaAddress: "$bob@uma.example", currency: "MXN" }
        }),
        PaymentFixtures.fullTransaction({
          source: {
            sourceType: "REALTIME_FUNDING",
            currency: "BTC",
            customerId: "Customer:z",
            paymentRail: "LIGHTNING",
            remittanceInformation: "for März"
          }
        }),
        // A refund with only its required fields, and reconciliation instructions without a reference.
        new Transaction.Transaction({
          ...PaymentFixtures.transaction({ status: "REFUNDED" }),
          reconciliationInstructions: {},
          refund: { reference: "Refund-1", initiatedAt: Fixtures.at(7), status: "PENDING" }
        })
      ]
      const storedRecords = records.map((record, index) =>
        PaymentFixtures.stored(record, index % 2 === 0 ? Option.some(PaymentFixtures.postingId()) : Option.none())
      )
      yield* Effect.forEach(storedRecords, (stored) => repo.insert(platform.id, stored), { discard: true })
      for (const stored of storedRecords) {
        expect(yield* repo.findById(platform.id, stored.transaction.id)).toEqual(Option.some(stored))
      }
      expect(yield* repo.findById(platform.id, PaymentFixtures.transactionId())).toEqual(Option.none())
      const listed = yield* repo.list(platform.id, newestFirst, firstPage)
      expect(listed.data).toEqual(PaymentFixtures.sorted(records))
    })
  )

  it.effect("never finds, lists or transitions a transaction of another platform", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const record = PaymentFixtures.fullTransaction({ status: "PENDING" })
      const stored = PaymentFixtures.stored(record, Option.some(PaymentFixtures.postingId()))
      yield* repo.insert(mine.id, stored)
      expect(yield* repo.findById(other.id, record.id)).toEqual(Option.none())
      const receiver = Transaction.receiverIdentifier(record)
      for (const filter of [
        newestFirst,
        { sortOrder: "asc" as const },
        { ...newestFirst, customerId: record.customerId, accountIdentifier: receiver },
        { ...newestFirst, reference: record.reconciliationInstructions?.reference, status: "PENDING" as const }
      ]) {
        expect(yield* repo.list(other.id, filter, firstPage)).toEqual({ data: [], hasMore: false })
      }
      const next = PaymentFixtures.stored(new Transaction.Transaction({ ...record, status: "PROCESSING" }))
      expect(yield* repo.transition(other.id, record.id, "PENDING", next)).toBe(false)
      expect(yield* repo.findById(mine.id, record.id)).toEqual(Option.some(stored))
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record and posting", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = PaymentFixtures.stored(PaymentFixtures.transaction(), Option.some(PaymentFixtures.postingId()))
      yield* repo.insert(platform.id, stored)
      const again = PaymentFixtures.stored(new Transaction.Transaction({ ...stored.transaction, status: "COMPLETED" }))
      const refused = yield* Effect.either(repo.insert(platform.id, again))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, stored.transaction.id)).toEqual(Option.some(stored))
    })
  )

  it.effect("transitions only from the current status, storing the record, its posting and its list keys", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const record = PaymentFixtures.transaction({ status: "PENDING" })
      const stored = PaymentFixtures.stored(record)
      yield* repo.insert(platform.id, stored)
      // The service may learn the source, the reference and the posting as the payment proceeds.
      const next = PaymentFixtures.stored(
        new Transaction.Transaction({
          ...PaymentFixtures.fullTransaction({ status: "PROCESSING", customerId: record.customerId }),
          id: record.id,
          createdAt: record.createdAt,
          destination: record.destination
        }),
        Option.some(PaymentFixtures.postingId())
      )
      expect(yield* repo.transition(platform.id, record.id, "CREATED", next)).toBe(false)
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.some(stored))
      expect(yield* repo.transition(platform.id, record.id, "PENDING", next)).toBe(true)
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.some(next))
      const stale = PaymentFixtures.stored(new Transaction.Transaction({ ...record, status: "EXPIRED" }))
      expect(yield* repo.transition(platform.id, record.id, "PENDING", stale)).toBe(false)
      expect(yield* repo.transition(platform.id, PaymentFixtures.transactionId(), "PENDING", stale)).toBe(false)
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.some(next))

      const found = (filter: Omit<TransactionRepo.TransactionFilter, "sortOrder">) =>
        Effect.map(repo.list(platform.id, { ...filter, sortOrder: "desc" }, firstPage), (page) =>
          PaymentFixtures.idsOf(page.data)
        )
      const updated = next.transaction
      expect(yield* found({ status: "PROCESSING" })).toEqual([record.id])
      expect(yield* found({ status: "PENDING" })).toEqual([])
      expect(yield* found({ reference: updated.reconciliationInstructions?.reference })).toEqual([record.id])
      expect(yield* found({ platformCustomerId: updated.platformCustomerId })).toEqual([record.id])
      expect(yield* found({ senderAccountIdentifier: Transaction.senderIdentifier(updated) })).toEqual([record.id])
      expect(yield* found({ accountIdentifier: Transaction.senderIdentifier(updated) })).toEqual([record.id])
    })
  )

  it.effect("advances only from the current status, changing the status, its times and the posting alone", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const record = PaymentFixtures.fullTransaction({ status: "PENDING" })
      yield* repo.insert(platform.id, PaymentFixtures.stored(record, Option.some(PaymentFixtures.postingId())))
      const changes = { status: "COMPLETED", updatedAt: Fixtures.at(5_000), postingId: Option.none() } as const
      expect(yield* repo.advance(platform.id, record.id, "PROCESSING", changes)).toEqual(Option.none())
      expect(yield* repo.advance(platform.id, PaymentFixtures.transactionId(), "PENDING", changes)).toEqual(
        Option.none()
      )
      const settled = { ...changes, settledAt: Fixtures.at(6_000) }
      const expected = PaymentFixtures.stored(
        new Transaction.Transaction({
          ...record,
          status: "COMPLETED",
          updatedAt: Fixtures.at(5_000),
          settledAt: Fixtures.at(6_000)
        })
      )
      const other = yield* Fixtures.insertPlatform
      expect(yield* repo.advance(other.id, record.id, "PENDING", settled)).toEqual(Option.none())
      expect(yield* repo.advance(platform.id, record.id, "PENDING", settled)).toEqual(Option.some(expected))
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.some(expected))
      expect(yield* repo.advance(platform.id, record.id, "PENDING", settled)).toEqual(Option.none())
      const listed = yield* repo.list(platform.id, { ...newestFirst, status: "COMPLETED" }, firstPage)
      expect(listed.data).toEqual([expected.transaction])
      expect((yield* repo.list(platform.id, { ...newestFirst, status: "PENDING" }, firstPage)).data).toEqual([])

      // Without `settledAt` the record keeps the one it has; a posting given is stored.
      const posting = Option.some(PaymentFixtures.postingId())
      const returned = PaymentFixtures.stored(
        new Transaction.Transaction({ ...expected.transaction, status: "FAILED", updatedAt: Fixtures.at(7_000) }),
        posting
      )
      const failed = { status: "FAILED", updatedAt: Fixtures.at(7_000), postingId: posting } as const
      expect(yield* repo.advance(platform.id, record.id, "COMPLETED", failed)).toEqual(Option.some(returned))
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.some(returned))
    })
  )

  it.effect("lets exactly one of 20 concurrent advances from one status apply", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const record = PaymentFixtures.transaction({ status: "PENDING" })
      yield* repo.insert(platform.id, PaymentFixtures.stored(record))
      const applied = yield* concurrently(
        Array.from({ length: 20 }, (_, index) =>
          repo.advance(platform.id, record.id, "PENDING", {
            status: index % 2 === 0 ? "PROCESSING" : "EXPIRED",
            updatedAt: Fixtures.at(1_000 + index),
            postingId: Option.none()
          })
        )
      )
      const winners = applied.filter(Option.isSome)
      expect(winners).toHaveLength(1)
      expect(yield* repo.findById(platform.id, record.id)).toEqual(winners[0])
    })
  )

  it.effect("lets exactly one of 20 concurrent transitions from one status apply", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const platform = yield* Fixtures.insertPlatform
      const record = PaymentFixtures.transaction({ status: "PROCESSING" })
      yield* repo.insert(platform.id, PaymentFixtures.stored(record, Option.some(PaymentFixtures.postingId())))
      const candidates = Array.from({ length: 20 }, (_, index) =>
        PaymentFixtures.stored(
          new Transaction.Transaction({
            ...record,
            status: index % 2 === 0 ? "COMPLETED" : "FAILED",
            updatedAt: Fixtures.at(1_000 + index)
          }),
          Option.some(PaymentFixtures.postingId())
        )
      )
      const applied = yield* concurrently(
        candidates.map((next) => repo.transition(platform.id, record.id, "PROCESSING", next))
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const winner = candidates[applied.indexOf(true)]
      expect(yield* repo.findById(platform.id, record.id)).toEqual(Option.fromNullable(winner))
    })
  )

  it.effect("keeps the inserts and transitions of a unit of work only when it commits", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const existing = PaymentFixtures.stored(PaymentFixtures.transaction({ status: "PENDING" }))
      yield* repo.insert(platform.id, existing)
      const fresh = PaymentFixtures.stored(
        PaymentFixtures.fullTransaction({ offsetMillis: 1_000 }),
        Option.some(PaymentFixtures.postingId())
      )
      const funded = PaymentFixtures.stored(
        new Transaction.Transaction({ ...existing.transaction, status: "PROCESSING" }),
        Option.some(PaymentFixtures.postingId())
      )
      const ids = [fresh.transaction.id, existing.transaction.id]
      const work = Effect.gen(function* () {
        yield* repo.insert(platform.id, fresh)
        expect(yield* repo.transition(platform.id, existing.transaction.id, "PENDING", funded)).toBe(true)
        expect(yield* repo.findById(platform.id, fresh.transaction.id)).toEqual(Option.some(fresh))
        expect(PaymentFixtures.idsOf((yield* repo.list(platform.id, newestFirst, firstPage)).data)).toEqual(ids)
      })
      const failed = yield* Effect.either(store.transaction(Effect.zipRight(work, Effect.fail("abandoned" as const))))
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(platform.id, fresh.transaction.id)).toEqual(Option.none())
      expect(yield* repo.findById(platform.id, existing.transaction.id)).toEqual(Option.some(existing))
      expect((yield* repo.list(platform.id, newestFirst, firstPage)).data).toEqual([existing.transaction])
      expect((yield* repo.list(platform.id, { ...newestFirst, status: "PROCESSING" }, firstPage)).data).toEqual([])

      yield* store.transaction(work)
      expect(yield* repo.findById(platform.id, fresh.transaction.id)).toEqual(Option.some(fresh))
      expect(yield* repo.findById(platform.id, existing.transaction.id)).toEqual(Option.some(funded))
    })
  )

  TransactionListSuite.register(it)
  TransactionPostingSuite.register(it)
}
