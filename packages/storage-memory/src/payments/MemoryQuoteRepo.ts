import { DateTime, Effect, Layer, Option } from "effect"
import { Errors, Page, type Quote, QuoteRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly quote: Quote.Quote
}

const keyOf = (quote: Quote.Quote): Page.Cursor => ({ createdAt: quote.createdAt, id: quote.id })

const matches = (quote: Quote.Quote, filter: QuoteRepo.QuoteFilter): boolean =>
  (filter.customerId === undefined || quote.customerId === filter.customerId) &&
  (filter.status === undefined || quote.status === filter.status) &&
  (filter.createdAfter === undefined || DateTime.greaterThanOrEqualTo(quote.createdAt, filter.createdAfter)) &&
  (filter.createdBefore === undefined || DateTime.lessThanOrEqualTo(quote.createdAt, filter.createdBefore))

/**
 * `QuoteRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing); every read is scoped to the platform; `transition` stores `next` only while
 * the status is `from`, in one atomic write that a failed unit of work undoes; `list` is newest first by
 * `(createdAt, id)`, after the cursor, without a count.
 */
export const layer: Layer.Layer<QuoteRepo.QuoteRepo, never, MemoryState> = Layer.effect(
  QuoteRepo.QuoteRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("quotes")

    const own = (platformId: string, id: string): Row | undefined => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }

    return {
      insert: (platformId, quote) =>
        Effect.flatten(
          state.write<Effect.Effect<void, Errors.StoreFailure>>(() =>
            rows.has(quote.id)
              ? [Effect.fail(Errors.StoreFailure.of("quotes.insert", "duplicate id")), () => {}]
              : [Effect.void, setEntry(rows, quote.id, { platformId, quote })]
          )
        ),
      findById: (platformId, id) =>
        Effect.sync(() => Option.map(Option.fromNullable(own(platformId, id)), (row) => row.quote)),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const after = page.after
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row.quote, filter))
            .map((row) => row.quote)
            .filter((quote) => Option.isNone(after) || Page.isAfter(keyOf(quote), after.value))
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          return Page.fromOverfetch(matching.slice(0, page.limit + 1), page, keyOf)
        }),
      transition: (platformId, id, from, next) =>
        state.write(() => {
          const current = own(platformId, id)
          if (current === undefined || current.quote.status !== from) return [false, () => {}] as const
          return [true, setEntry(rows, id, { platformId, quote: next })] as const
        })
    }
  })
)
