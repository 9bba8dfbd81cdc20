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

/**
 * The keyset condition of a page in `order`: rows strictly beyond the cursor in `(created_at, id)` order, newest
 * first (`afterCursor`) or oldest first, ids in byte order. Empty for a first page. An index ending in
 * `(created_at, id)` serves both orders (a btree scans either way) and starts right at the cursor.
 */
export const beyondCursor = (
  sql: SqlClient.SqlClient,
  page: typeof PageRequest.Encoded,
  order: "asc" | "desc"
): Array<Fragment> =>
  order === "desc"
    ? afterCursor(sql, page)
    : Option.toArray(
        Option.map(
          page.after,
          (cursor) => sql`(created_at, id COLLATE "C") > (${cursor.createdAt}::timestamptz, ${cursor.id} COLLATE "C")`
        )
      )

/** The `ORDER BY` of a page in `order`: `(created_at, id)` with ids in byte order, the order of `beyondCursor`. */
export const orderBy = (sql: SqlClient.SqlClient, order: "asc" | "desc"): Fragment =>
  order === "desc" ? sql`ORDER BY created_at DESC, id COLLATE "C" DESC` : sql`ORDER BY created_at, id COLLATE "C"`

/** The `LIMIT` of a page's rows: one more than the page holds, which tells whether more exist. */
export const overfetch = (page: typeof PageRequest.Encoded): number => page.limit + 1
