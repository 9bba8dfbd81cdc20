import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Errors, Page } from "@payrail/core"
import { PaymentFixtures } from "../payments/index.js"

/**
 * Every page of a counted list, `limit` rows at a time, with each page's invariants checked (the same total on
 * every page, a cursor exactly when more follow, never more than `limit` rows, a total that counts every row): the
 * ids in the order the pages gave them.
 */
export const pagedIds = <A extends { readonly id: string }, R>(
  list: (page: Page.PageRequest) => Effect.Effect<Page.Page<A>, Errors.StoreFailure, R>,
  limit: number
) =>
  Effect.gen(function* () {
    const pages = yield* PaymentFixtures.allPages(list, limit)
    const total = pages[0]?.totalCount
    for (const page of pages) {
      expect(page.totalCount).toBe(total)
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
    }
    const ids = pages.flatMap((page) => page.data.map((row) => row.id))
    expect(total).toBe(ids.length)
    return ids
  })
