import type { DateTime } from "effect"
import { Option } from "effect"
import { Page } from "@payrail/core"

interface Keyed {
  readonly id: string
  readonly createdAt: DateTime.Utc
}

const keyOf = (row: Keyed): Page.Cursor => ({ createdAt: row.createdAt, id: row.id })

/** A keyset page of `rows` by `(createdAt, id)` in `sortOrder`, after the request's cursor, without a count. */
export const pageOf = <A extends Keyed>(
  rows: ReadonlyArray<A>,
  page: Page.PageRequest,
  sortOrder: "asc" | "desc"
): Page.Page<A> => {
  const ordered = [...rows].sort((a, b) =>
    sortOrder === "desc" ? Page.compareNewestFirst(keyOf(a), keyOf(b)) : Page.compareNewestFirst(keyOf(b), keyOf(a))
  )
  const after = page.after
  const rest = Option.isSome(after)
    ? ordered.filter((row) =>
        sortOrder === "desc" ? Page.isAfter(keyOf(row), after.value) : Page.isAfter(after.value, keyOf(row))
      )
    : ordered
  return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf)
}
