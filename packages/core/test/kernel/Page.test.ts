import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { Page } from "@payrail/core"

const cursor = {
  createdAt: DateTime.unsafeMake("2026-01-02T03:04:05.678Z"),
  id: "Customer:00000000-0000-4000-8000-000000000001"
}

describe("Page", () => {
  it.effect("round-trips a cursor through its opaque text form", () =>
    Effect.gen(function* () {
      const text = Page.encodeCursor(cursor)
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
      const decoded = yield* Page.decodeCursor(text)
      expect(decoded.id).toBe(cursor.id)
      expect(DateTime.toEpochMillis(decoded.createdAt)).toBe(DateTime.toEpochMillis(cursor.createdAt))
    })
  )

  it.effect("rejects text that is not a cursor with INVALID_INPUT on the cursor field", () =>
    Effect.gen(function* () {
      for (const forged of ["not base64!", "e30", Page.encodeCursor(cursor).slice(0, -3)]) {
        const result = yield* Effect.either(Page.decodeCursor(forged))
        expect(Either.isLeft(result) && result.left.details?.errors[0]?.field).toBe("cursor")
      }
    })
  )

  it("builds a page from an overfetched slice: nextCursor exactly when more rows exist", () => {
    const rows = [3, 2, 1].map((n) => ({ createdAt: DateTime.unsafeMake(n * 1000), id: `id-${n}` }))
    const request = { limit: 2, after: Option.none() }
    const page = Page.fromOverfetch(rows, request, (row) => row, 10)
    expect(page.data).toEqual(rows.slice(0, 2))
    expect(page.hasMore).toBe(true)
    expect(page.nextCursor).toBe(Page.encodeCursor(rows[1]!))
    const last = Page.fromOverfetch(rows.slice(0, 2), request, (row) => row, 2)
    expect(last).toEqual({ data: rows.slice(0, 2), hasMore: false, totalCount: 2 })
  })

  it("orders newest first with the id breaking ties", () => {
    const at = DateTime.unsafeMake(0)
    const keys = [
      { createdAt: at, id: "b" },
      { createdAt: DateTime.unsafeMake(5), id: "a" },
      { createdAt: at, id: "c" }
    ]
    expect([...keys].sort(Page.compareNewestFirst).map((key) => key.id)).toEqual(["a", "c", "b"])
    expect(Page.isAfter({ createdAt: at, id: "b" }, { createdAt: at, id: "c" })).toBe(true)
    expect(Page.isAfter({ createdAt: at, id: "c" }, { createdAt: at, id: "c" })).toBe(false)
  })
})
