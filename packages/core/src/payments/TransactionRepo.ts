import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Transaction, TransactionId, TransactionStatus, TransactionType } from "./Transaction.js"

/**
 * A transaction as stored: the record the API shows, and what only the service needs: the ledger posting that
 * reserves (then settles) its money, when it has one.
 */
export interface StoredTransaction {
  readonly transaction: Transaction
  /** The `Posting:<uuid>` of the transaction's movement in the ledger (pending until the rail settles it). */
  readonly postingId: Option.Option<string>
}

/** Filters of the transaction list; `startDate` and `endDate` bound `createdAt`, inclusive. */
export interface TransactionFilter {
  readonly customerId?: string | undefined
  readonly platformCustomerId?: string | undefined
  /** Matches the sender's or the receiver's identifier (`Transaction.senderIdentifier`, `receiverIdentifier`). */
  readonly accountIdentifier?: string | undefined
  readonly senderAccountIdentifier?: string | undefined
  readonly receiverAccountIdentifier?: string | undefined
  readonly status?: TransactionStatus | undefined
  readonly type?: TransactionType | undefined
  /** Matches `reconciliationInstructions.reference`. */
  readonly reference?: string | undefined
  readonly startDate?: DateTime.Utc | undefined
  readonly endDate?: DateTime.Utc | undefined
  /** `desc` (newest first, the default) or `asc`. */
  readonly sortOrder: "asc" | "desc"
}

/**
 * Storage of transactions, scoped to one platform: a transaction of another platform is never found.
 * - `transition` is a compare-and-set on the status: of concurrent transitions from one status exactly one
 *   applies, so each outcome of a payment is applied once however many workers race.
 * - `list` pages by `(createdAt, id)` in `sortOrder` with keyset cursors and does not count (`totalCount` absent):
 *   a page costs the same at any depth and at a million rows, for every filter.
 */
export class TransactionRepo extends Context.Tag("@payrail/core/TransactionRepo")<
  TransactionRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      stored: StoredTransaction
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: TransactionId
    ) => Effect.Effect<Option.Option<StoredTransaction>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: TransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Transaction>, StoreFailure.StoreFailure>
    /** Replaces the transaction with `next` if its status is still `from`; answers whether it applied. */
    readonly transition: (
      platformId: Platform.PlatformId,
      id: TransactionId,
      from: TransactionStatus,
      next: StoredTransaction
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
