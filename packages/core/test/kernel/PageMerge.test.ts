import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import * as fc from "fast-check"
import { Page } from "@payrail/core"

interface Row {
  readonly createdAt: DateTime.Utc
  readonly id: string
}

const compare = (sortOrder: "asc" | "desc") => (a: Row, b: Row) =>
  sortOrder === "desc" ? Page.compareNewestFirst(a, b) : Page.compareNewestFirst(b, a)

// One list as a keyset store answers it: its rows after the cursor in the order, `limit` of them.
const pageOf = (rows: ReadonlyArray<Row>, request: Page.PageRequest, sortOrder: "asc" | "desc"): Page.Page<Row> => {
  const ordered = [...rows].sort(compare(sortOrder))
  const after = request.after
  const rest = Option.isNone(after) ? ordered : ordered.filter((row) => compare(sortOrder)(row, after.value) > 0)
  return Page.fromOverfetch(rest.slice(0, request.limit + 1), request, (row) => row)
}

// Every merged page of the lists, `limit` rows at a time, following each page's cursor.
const mergedPages = (lists: ReadonlyArray<ReadonlyArray<Row>>, limit: number, sortOrder: "asc" | "desc") =>
  Effect.gen(function* () {
    const pages: Array<Page.Page<Row>> = []
    let after: Option.Option<Page.Cursor> = Option.none()
    for (;;) {
      const request = { limit, after }
      const page = Page.merge(
        lists.map((rows) => pageOf(rows, request, sortOrder)),
        request,
        sortOrder
      )
      pages.push(page)
      if (page.nextCursor === undefined) return pages
      after = Option.some(yield* Page.decodeCursor(page.nextCursor))
    }
  })

// Rows of one list: ids with the list's own prefix (two lists never share a key), a few instants so many tie.
const rowsOf = (prefix: string) =>
  fc
    .uniqueArray(
      fc.record({ second: fc.integer({ min: 0, max: 4 }), suffix: fc.hexaString({ minLength: 1, maxLength: 4 }) }),
      { selector: (row) => row.suffix, maxLength: 12 }
    )
    .map((rows) =>
      rows.map((row): Row => ({ createdAt: DateTime.unsafeMake(row.second * 1_000), id: `${prefix}:${row.suffix}` }))
    )

describe("Page.merge", () => {
  it.effect("pages through the union of lists in either order, every row once, for any page size", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.tuple(rowsOf("Transaction"), rowsOf("CardTransaction"), rowsOf("Other")),
          fc.integer({ min: 1, max: 3 }),
          fc.integer({ min: 1, max: 7 }),
          fc.constantFrom("asc" as const, "desc" as const),
          async (all, count, limit, sortOrder) => {
            const lists = all.slice(0, count)
            const pages = await Effect.runPromise(mergedPages(lists, limit, sortOrder))
            const union = lists.flat().sort(compare(sortOrder))
            expect(pages.flatMap((page) => page.data)).toEqual(union)
            for (const [index, page] of pages.entries()) {
              const last = index === pages.length - 1
              expect(page.hasMore).toBe(!last)
              expect(page.nextCursor !== undefined).toBe(!last)
              expect(page.data.length).toBe(last ? page.data.length : limit)
              expect(page.data.length).toBeLessThanOrEqual(limit)
            }
          }
        ),
        { numRuns: 300 }
      )
    )
  )

  it("answers one list's page unchanged, and an empty page for no rows", () => {
    const rows = [3, 2, 1].map((n): Row => ({ createdAt: DateTime.unsafeMake(n * 1_000), id: `Transaction:${n}` }))
    const request = { limit: 2, after: Option.none() }
    const single = pageOf(rows, request, "desc")
    expect(Page.merge([single, { data: [], hasMore: false }], request, "desc")).toEqual(single)
    expect(Page.merge<Row>([], request, "asc")).toEqual({ data: [], hasMore: false })
  })
})
