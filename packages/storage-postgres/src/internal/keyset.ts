import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Option, Schema } from "effect"

/**
 * A `Page.PageRequest` as a request schema: the cursor's time encodes to ISO-8601 text (UTC, milliseconds), which
 * PostgreSQL converts with `::timestamptz`.
 */
export const PageRequest = Schema.Struct({
  limit: Schema.Int,
  after: Schema.OptionFromSelf(Schema.Struct({ createdAt: Schema.DateTimeUtc, id: Schema.String }))
})

/**
 * The keyset condition of a newest-first page: rows strictly after the cursor in `(created_at DESC, id DESC)`
 * order, ids compared in byte order (`COLLATE "C"`). Empty for a first page. The row comparison lets an index on
 * `(…, created_at DESC, id DESC)` start right at the cursor, so a deep page costs what a first page does.
 */
export const afterCursor = (sql: SqlClient.SqlClient, page: typeof PageRequest.Encoded): Array<Fragment> =>
  Option.toArray(
    Option.map(
      page.after,
      (cursor) => sql`(created_at, id COLLATE "C") < (${cursor.createdAt}::timestamptz, ${cursor.id} COLLATE "C")`
    )
  )

/** The `LIMIT` of a page's rows: one more than the page holds, which tells whether more exist. */
export const overfetch = (page: typeof PageRequest.Encoded): number => page.limit + 1
