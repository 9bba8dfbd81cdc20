import { expect } from "@effect/vitest"
import { type DateTime, Effect } from "effect"
import { type Errors, Page } from "@payrail/core"
import { PaymentFixtures } from "../payments/index.js"

interface Keyed {
  readonly id: string
  readonly createdAt: DateTime.Utc
}

/**
 * Every page of an uncounted list, `limit` rows at a time, with each page's invariants checked (a cursor exactly
 * when more follow, never more than `limit` rows, no count, no row twice): the ids in the order the pages gave them.
 */
export const pagedIds = <A extends Keyed, R>(
  list: (page: Page.PageRequest) => Effect.Effect<Page.Page<A>, Errors.StoreFailure, R>,
  limit: number
) =>
  Effect.gen(function* () {
    const pages = yield* PaymentFixtures.allPages(list, limit)
    for (const page of pages) {
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
      expect(page.totalCount).toBeUndefined()
    }
    const ids = pages.flatMap((page) => page.data.map((row) => row.id))
    expect(new Set(ids).size).toBe(ids.length)
    return ids
  })

/** The ids of `rows` in `(createdAt, id)` order: newest first for `desc`, oldest first for `asc`. */
export const ordered = <A extends Keyed>(rows: ReadonlyArray<A>, sortOrder: "asc" | "desc"): ReadonlyArray<string> => {
  const newestFirst = [...rows].sort(Page.compareNewestFirst).map((row) => row.id)
  return sortOrder === "desc" ? newestFirst : newestFirst.reverse()
}
