import { Context, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { CardFilter, CardId, Card, StoredCard } from "./Card.js"

/**
 * Cards, each with its version and the issuer's secret (`StoredCard`). Every read is scoped to the platform.
 *
 * - `insert` stores a new card (an id is inserted once).
 * - `update` stores `next` only while the stored version is `expectedVersion` (compare and set, one atomic write);
 *   `next.version` is `expectedVersion + 1`. `false` when another update won.
 * - `list` pages by `(createdAt, id)` in `filter.sortOrder`, with the filters of `GET /cards`.
 */
export class CardRepo extends Context.Tag("@payrail/core/CardRepo")<
  CardRepo,
  {
    readonly insert: (stored: StoredCard) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: CardId
    ) => Effect.Effect<Option.Option<StoredCard>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: CardFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Card>, StoreFailure.StoreFailure>
    readonly update: (next: StoredCard, expectedVersion: number) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
