import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Errors, Page, Platform, Quote, QuoteRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { record, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"
import * as WriteBehind from "../internal/writeBehind.js"

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: Quote.QuoteId })

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    customerId: Schema.optional(Schema.String),
    status: Schema.optional(Quote.QuoteStatus),
    createdAfter: Schema.optional(Schema.DateTimeUtc),
    createdBefore: Schema.optional(Schema.DateTimeUtc)
  }),
  page: PageRequest
})

const keyOf = (quote: Quote.Quote): Page.Cursor => ({ createdAt: quote.createdAt, id: quote.id })

/**
 * `QuoteRepo` on the `quotes` table (each record encoded in `record`, with the columns its list filters and orders
 * by), every statement scoped by `platform_id`.
 *
 * Guarantees:
 * - `insert` is one `INSERT`; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `transition` is one guarded `UPDATE … WHERE platform_id AND id AND status = from` that rewrites the record and
 *   its columns: of concurrent transitions from one status exactly one applies.
 * - `list` is one keyset `SELECT`, newest first by `(created_at, id)` with ids in byte order (`COLLATE "C"`), on an
 *   index per filter (migration `0019_payments`), without a count. A filter value PostgreSQL's `text` cannot hold
 *   (NUL) matches nothing and reaches no statement.
 */
export const make: Effect.Effect<Context.Tag.Service<QuoteRepo.QuoteRepo>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    // The columns of a stored quote, from its encoded form.
    const columns = (quote: typeof Quote.Quote.Encoded) =>
      Effect.map(jsonText(quote), (json) => ({
        customer_id: quote.customerId ?? null,
        status: quote.status,
        record: json,
        created_at: quote.createdAt
      }))

    const matching = ({ platformId, filter }: typeof Listing.Encoded): Array<Fragment> => {
      const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
      if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
      if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
      if (filter.createdAfter !== undefined) conditions.push(sql`created_at >= ${filter.createdAfter}::timestamptz`)
      if (filter.createdBefore !== undefined) conditions.push(sql`created_at <= ${filter.createdBefore}::timestamptz`)
      return conditions
    }

    // Sent with the unit of work's other writes (`WriteBehind`).
    const insert = WriteBehind.encoded(sql, {
      Request: Schema.Struct({ platformId: Platform.PlatformId, quote: Quote.Quote }),
      operation: "quotes.insert",
      steps: ({ platformId, quote }) =>
        Effect.map(columns(quote), (values) =>
          WriteBehind.single(
            "quote",
            sql`INSERT INTO quotes ${sql.insert({ id: quote.id, platform_id: platformId, ...values })}`
          )
        )
    })

    const findById = SqlSchema.findOne({
      Request: ById,
      Result: record(Quote.Quote),
      execute: ({ platformId, id }) => sql`SELECT record FROM quotes WHERE platform_id = ${platformId} AND id = ${id}`
    })

    const rows = SqlSchema.findAll({
      Request: Listing,
      Result: record(Quote.Quote),
      execute: (request) => sql`SELECT record FROM quotes
          WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
          ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
    })

    const transition = SqlSchema.findOne({
      Request: Schema.Struct({
        platformId: Platform.PlatformId,
        id: Quote.QuoteId,
        from: Quote.QuoteStatus,
        next: Quote.Quote
      }),
      Result: Returned,
      execute: ({ platformId, id, from, next }) =>
        Effect.flatMap(
          columns(next),
          (values) => sql`UPDATE quotes SET ${sql.update(values)}
              WHERE platform_id = ${platformId} AND id = ${id} AND status = ${from}
              RETURNING id`
        )
    })

    return QuoteRepo.QuoteRepo.of({
      insert: (platformId, quote) => insert({ platformId, quote }),

      findById: (platformId, id) =>
        findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("quotes.findById"))),

      list: (platformId, filter, page) =>
        filter.customerId !== undefined && !storable(filter.customerId)
          ? Effect.succeed(Page.fromOverfetch([], page, keyOf))
          : rows({ platformId, filter, page }).pipe(
              Effect.map((quotes) => Page.fromOverfetch(quotes, page, keyOf)),
              Effect.mapError(Errors.StoreFailure.wrap("quotes.list"))
            ),

      transition: (platformId, id, from, next) =>
        transition({ platformId, id, from, next }).pipe(
          Effect.map(Option.isSome),
          Effect.mapError(Errors.StoreFailure.wrap("quotes.transition"))
        )
    })
  }
)

/** Provides `QuoteRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<QuoteRepo.QuoteRepo, never, SqlClient.SqlClient> = Layer.effect(
  QuoteRepo.QuoteRepo,
  make
)
