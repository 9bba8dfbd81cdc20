import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type Page, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { TransactionNotFound } from "./PaymentErrors.js"
import { Transaction, type TransactionId } from "./Transaction.js"
import { type TransactionFilter, TransactionRepo } from "./TransactionRepo.js"

/** Reading transactions, and the platform's receipt confirmation. */
export class Transactions extends Context.Tag("@payrail/core/Transactions")<
  Transactions,
  {
    readonly get: (
      platform: Platform.Platform,
      id: TransactionId
    ) => Effect.Effect<Transaction, TransactionNotFound | StoreFailure.StoreFailure>
    /** A keyset page of the platform's transactions matching `filter`, in its `sortOrder`; not counted. */
    readonly list: (
      platform: Platform.Platform,
      filter: TransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Transaction>, StoreFailure.StoreFailure>
    /**
     * Records that the receipt of the transaction was delivered to its customer, at `at` (default: now); a repeated
     * call overwrites the time, as the reference does. The status is left as it is.
     */
    readonly confirm: (
      platform: Platform.Platform,
      id: TransactionId,
      at: Option.Option<DateTime.Utc>
    ) => Effect.Effect<Transaction, TransactionNotFound | StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  Transactions,
  Effect.gen(function* () {
    const repo = yield* TransactionRepo
    const store = yield* UnitOfWork.UnitOfWork

    const find = (platform: Platform.Platform, id: TransactionId) =>
      Effect.flatMap(
        repo.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(TransactionNotFound.of(id)), onSome: Effect.succeed })
      )

    // A confirmation racing a status change re-reads and applies again: the change keeps its status, this keeps
    // its time.
    const confirmOnce = (platform: Platform.Platform, id: TransactionId, at: Option.Option<DateTime.Utc>) =>
      store.transaction(
        Effect.gen(function* () {
          const stored = yield* find(platform, id)
          const now = yield* DateTime.now
          const next = new Transaction(
            { ...stored.transaction, receiptDeliveryConfirmedAt: Option.getOrElse(at, () => now), updatedAt: now },
            { disableValidation: true }
          )
          const applied = yield* repo.transition(platform.id, id, stored.transaction.status, {
            ...stored,
            transaction: next
          })
          return Option.some(next).pipe(Option.filter(() => applied))
        })
      )

    return {
      get: Effect.fn("Transactions.get")(function* (platform: Platform.Platform, id: TransactionId) {
        return (yield* find(platform, id)).transaction
      }),
      list: (platform, filter, page) => repo.list(platform.id, filter, page),
      confirm: Effect.fn("Transactions.confirm")(function* (
        platform: Platform.Platform,
        id: TransactionId,
        at: Option.Option<DateTime.Utc>
      ) {
        for (;;) {
          const confirmed = yield* confirmOnce(platform, id, at)
          if (Option.isSome(confirmed)) return confirmed.value
        }
      })
    }
  })
)
