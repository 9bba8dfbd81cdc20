import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Quote, QuoteId, QuoteStatus } from "./Quote.js"

/** Filters of the quote list; bounds on `createdAt` are inclusive. */
export interface QuoteFilter {
  readonly customerId?: string | undefined
  readonly status?: QuoteStatus | undefined
  readonly createdAfter?: DateTime.Utc | undefined
  readonly createdBefore?: DateTime.Utc | undefined
}

/**
 * Storage of quotes, scoped to one platform: a quote of another platform is never found.
 * - `transition` is a compare-and-set on the status: of concurrent transitions from one status exactly one
 *   applies, so a quote is executed (or expired) once however many requests race.
 * - `list` pages newest first by `(createdAt, id)` and does not count (`totalCount` absent): a page costs the same
 *   at any depth and at any table size.
 */
export class QuoteRepo extends Context.Tag("@payrail/core/QuoteRepo")<
  QuoteRepo,
  {
    readonly insert: (platformId: Platform.PlatformId, quote: Quote) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: QuoteId
    ) => Effect.Effect<Option.Option<Quote>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: QuoteFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Quote>, StoreFailure.StoreFailure>
    /** Replaces the quote with `next` if its status is still `from`; answers whether it applied. */
    readonly transition: (
      platformId: Platform.PlatformId,
      id: QuoteId,
      from: QuoteStatus,
      next: Quote
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
