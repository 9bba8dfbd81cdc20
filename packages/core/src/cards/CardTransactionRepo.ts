import { Context, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type {
  CardTransaction,
  CardTransactionFilter,
  CardTransactionId,
  StoredCardTransaction
} from "./CardTransaction.js"

/**
 * Card transactions with their version and ledger hold (`StoredCardTransaction`). Every read is scoped to the
 * platform.
 *
 * - `insert` stores a new row (an id is inserted once).
 * - `update` stores `next` only while the stored version is `expectedVersion` (compare and set, one atomic write);
 *   `next.version` is `expectedVersion + 1`. `false` when another update won.
 * - `list` pages by `(createdAt, id)` in `filter.sortOrder`; its cursor is the `Page` cursor every list uses, so
 *   `GET /transactions` merges these rows with money transactions page by page.
 */
export class CardTransactionRepo extends Context.Tag("@payrail/core/CardTransactionRepo")<
  CardTransactionRepo,
  {
    readonly insert: (stored: StoredCardTransaction) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: CardTransactionId
    ) => Effect.Effect<Option.Option<StoredCardTransaction>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: CardTransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<CardTransaction>, StoreFailure.StoreFailure>
    readonly update: (
      next: StoredCardTransaction,
      expectedVersion: number
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
