import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import type { Page } from "@payrail/core"
import { Option } from "effect"
import { timestampText } from "./encoding.js"

/**
 * The keyset condition of a newest-first page: rows strictly after the cursor in `(created_at DESC, id DESC)`
 * order, ids compared in byte order (`COLLATE "C"`). Empty for a first page. The row comparison lets an index on
 * `(…, created_at DESC, id DESC)` start right at the cursor, so a deep page costs what a first page does.
 */
export const afterCursor = (sql: SqlClient.SqlClient, page: Page.PageRequest): Array<Fragment> =>
  Option.toArray(
    Option.map(
      page.after,
      (cursor) =>
        sql`(created_at, id COLLATE "C") < (${timestampText(cursor.createdAt)}::timestamptz, ${cursor.id} COLLATE "C")`
    )
  )
