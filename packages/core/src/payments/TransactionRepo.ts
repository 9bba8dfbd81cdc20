import { Context, type DateTime, type Effect, type Option } from "effect"
import type { DomainEvent, Page, StoreFailure } from "../kernel/index.js"
import type { Ledger } from "../ledger/index.js"
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

/** What `TransactionRepo.advance` writes: the new status, its time, and the transaction's posting. */
export interface TransactionChanges {
  readonly status: TransactionStatus
  readonly updatedAt: DateTime.Utc
  readonly settledAt?: DateTime.Utc | undefined
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
 * - `transition` and `advance` are compare-and-sets on the status: of concurrent transitions from one status exactly
 *   one applies, so each outcome of a payment is applied once however many workers race.
 * - `insertPosted` posts, inserts and records as one atomic step (one statement on SQL adapters): a payment that
 *   arrives settled, or reserved, together with its money.
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
    /**
     * Posts `posting` in the ledger and, when this call applies it, inserts `transaction` (its `postingId` the
     * posting's id) and records `event` (delivered as webhooks like any outbox event), atomically: on SQL adapters
     * one statement, so no lock is held across a round trip; inside a unit of work it joins it. A replay of the
     * posting (same idempotency key and content) inserts and records nothing and answers `applied: false`; a
     * posting the ledger refuses (`Ledger.post`'s errors) leaves nothing. The transaction's platform is the
     * posting's.
     */
    readonly insertPosted: (
      posting: Ledger.Posting,
      transaction: Transaction,
      event: DomainEvent.DomainEvent
    ) => Effect.Effect<
      Ledger.PostResult,
      | Ledger.BalanceLimitExceeded
      | Ledger.InsufficientFunds
      | Ledger.IdempotencyKeyReused
      | Ledger.InvalidPosting
      | StoreFailure.StoreFailure
    >
    readonly findById: (
      platformId: Platform.PlatformId,
      id: TransactionId
    ) => Effect.Effect<Option.Option<StoredTransaction>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: TransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Transaction>, StoreFailure.StoreFailure>
    /**
     * Moves the transaction to `changes.status` if its status is still `from`, without reading it first: the
     * status, `updatedAt` (and `settledAt` when given) of its record and its posting (`changes.postingId`) are
     * written, every other field kept (on SQL adapters one guarded `UPDATE … RETURNING`). Answers the transaction
     * as it now is, or none when its status was not `from` (another writer won, or it does not exist).
     */
    readonly advance: (
      platformId: Platform.PlatformId,
      id: TransactionId,
      from: TransactionStatus,
      changes: TransactionChanges
    ) => Effect.Effect<Option.Option<StoredTransaction>, StoreFailure.StoreFailure>
    /** Replaces the transaction with `next` if its status is still `from`; answers whether it applied. */
    readonly transition: (
      platformId: Platform.PlatformId,
      id: TransactionId,
      from: TransactionStatus,
      next: StoredTransaction
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
