import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import {
  DomainEvent,
  Ids,
  Ledger,
  Outbox,
  type Platform,
  Transaction,
  TransactionRepo,
  UnitOfWork
} from "@payrail/core"
import { LedgerFixtures } from "../ledger/index.js"
import type { Methods } from "../internal/Methods.js"
import * as PaymentFixtures from "./PaymentFixtures.js"

const eventOf = (platformId: Platform.PlatformId, transaction: Transaction.Transaction) =>
  Effect.provide(
    DomainEvent.make(platformId, "INCOMING_PAYMENT", { id: transaction.id, status: transaction.status }),
    Ids.layer
  )

const eventsAbout = (platformId: Platform.PlatformId, transactionIds: ReadonlyArray<string>) =>
  Effect.map(
    Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)),
    (events) =>
      events.filter((event) => event.platformId === platformId && transactionIds.includes(String(event.data["id"])))
  )

const incoming = (accountId: string, status: Transaction.TransactionStatus = "COMPLETED") =>
  PaymentFixtures.transaction({
    type: "INCOMING",
    status,
    source: { sourceType: "UMA_ADDRESS", umaAddress: "$success.usd@sandbox.uma.money" },
    destination: { destinationType: "ACCOUNT", accountId, currency: "USD" }
  })

/**
 * `TransactionRepo.insertPosted`: the posting, the transaction (with the posting's id) and its event are one atomic
 * step; a replay of the posting writes neither a transaction nor an event; a refused posting, or a unit of work that
 * fails around it, leaves nothing; of concurrent calls with one idempotency key exactly one records a transaction.
 */
export const register = (it: Methods) => {
  it.effect("posts, inserts the transaction with its posting and records its event in one step", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const book = yield* LedgerFixtures.openBook({ usd: 1 })
      const [account = ""] = book.usd
      const posting = LedgerFixtures.deposit(book.platformId, account, 2_500n)
      const transaction = incoming(account)
      const result = yield* repo.insertPosted(posting, transaction, yield* eventOf(book.platformId, transaction))
      expect(result.applied).toBe(true)
      expect(Ledger.balanceAfter(result, account).pipe(Option.map((balance) => balance.postedMinor))).toEqual(
        Option.some(2_500n)
      )
      expect(yield* repo.findById(book.platformId, transaction.id)).toEqual(
        Option.some({ transaction, postingId: Option.some(result.postingId) })
      )
      const listed = yield* repo.list(
        book.platformId,
        { sortOrder: "desc", receiverAccountIdentifier: account, type: "INCOMING" },
        { limit: 10, after: Option.none() }
      )
      expect(PaymentFixtures.idsOf(listed.data)).toEqual([transaction.id])
      expect((yield* eventsAbout(book.platformId, [transaction.id])).map((event) => event.data)).toEqual([
        { id: transaction.id, status: "COMPLETED" }
      ])
      yield* LedgerFixtures.checkInvariants(book.platformId, book.accounts)
    })
  )

  it.effect("takes pending postings (the transaction's money on its way) as well as settled ones", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const book = yield* LedgerFixtures.openBook({ usd: 1 })
      const [account = ""] = book.usd
      const posting = { ...LedgerFixtures.deposit(book.platformId, account, 700n), status: "pending" as const }
      const transaction = incoming(account, "PENDING")
      const result = yield* repo.insertPosted(posting, transaction, yield* eventOf(book.platformId, transaction))
      expect(yield* LedgerFixtures.amounts(book.platformId, account)).toEqual([0n, 0n, 700n])
      expect(Option.map(yield* repo.findById(book.platformId, transaction.id), (stored) => stored.postingId)).toEqual(
        Option.some(Option.some(result.postingId))
      )
    })
  )

  it.effect("records nothing more on a replay, and nothing at all when the ledger refuses the posting", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const book = yield* LedgerFixtures.openBook({ usd: 1 })
      const [account = ""] = book.usd
      const posting = LedgerFixtures.deposit(book.platformId, account, 100n)
      const first = incoming(account)
      const applied = yield* repo.insertPosted(posting, first, yield* eventOf(book.platformId, first))
      const second = incoming(account)
      const replayed = yield* repo.insertPosted(posting, second, yield* eventOf(book.platformId, second))
      expect(replayed).toEqual({ ...applied, applied: false })
      expect(yield* repo.findById(book.platformId, second.id)).toEqual(Option.none())

      const tooMuch = LedgerFixtures.deposit(book.platformId, account, Ledger.balanceMinorMax)
      const refused = incoming(account)
      const failure = yield* Effect.flip(repo.insertPosted(tooMuch, refused, yield* eventOf(book.platformId, refused)))
      expect(failure._tag).toBe("BalanceLimitExceeded")
      const reused = { ...posting, entries: LedgerFixtures.deposit(book.platformId, account, 5n).entries }
      const other = incoming(account)
      expect((yield* Effect.flip(repo.insertPosted(reused, other, yield* eventOf(book.platformId, other))))._tag).toBe(
        "IdempotencyKeyReused"
      )
      for (const id of [refused.id, other.id]) {
        expect(yield* repo.findById(book.platformId, id)).toEqual(Option.none())
      }
      const events = yield* eventsAbout(book.platformId, [first.id, second.id, refused.id, other.id])
      expect(events.map((event) => event.data["id"])).toEqual([first.id])
      expect(yield* LedgerFixtures.amounts(book.platformId, account)).toEqual([100n, 0n, 0n])
      yield* LedgerFixtures.checkInvariants(book.platformId, book.accounts)
    })
  )

  it.effect("leaves nothing when the unit of work around it fails", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const book = yield* LedgerFixtures.openBook({ usd: 1 })
      const [account = ""] = book.usd
      const transaction = incoming(account)
      const event = yield* eventOf(book.platformId, transaction)
      const work = repo.insertPosted(LedgerFixtures.deposit(book.platformId, account, 300n), transaction, event)
      const failed = yield* Effect.either(store.transaction(Effect.zipRight(work, Effect.fail("abandoned" as const))))
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(book.platformId, transaction.id)).toEqual(Option.none())
      expect(yield* eventsAbout(book.platformId, [transaction.id])).toEqual([])
      expect(yield* LedgerFixtures.amounts(book.platformId, account)).toEqual([0n, 0n, 0n])
    })
  )

  it.effect("records one transaction of 10 concurrent calls with one idempotency key", () =>
    Effect.gen(function* () {
      const repo = yield* TransactionRepo.TransactionRepo
      const book = yield* LedgerFixtures.openBook({ usd: 1 })
      const [account = ""] = book.usd
      const posting = LedgerFixtures.deposit(book.platformId, account, 10n)
      const candidates = Array.from({ length: 10 }, () => incoming(account))
      const results = yield* Effect.all(
        yield* Effect.forEach(candidates, (transaction) =>
          Effect.map(eventOf(book.platformId, transaction), (event) => repo.insertPosted(posting, transaction, event))
        ),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result.applied)).toHaveLength(1)
      const found = yield* Effect.forEach(candidates, (transaction) => repo.findById(book.platformId, transaction.id))
      expect(found.filter(Option.isSome)).toHaveLength(1)
      expect(yield* eventsAbout(book.platformId, PaymentFixtures.idsOf(candidates))).toHaveLength(1)
      expect(yield* LedgerFixtures.amounts(book.platformId, account)).toEqual([10n, 0n, 0n])
    })
  )
}
