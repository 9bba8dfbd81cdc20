import { DateTime, Effect, Option, Schema } from "effect"
import { FieldFormat } from "@payrail/account-formats"
import { FieldError } from "./FieldError.js"
import { InvalidInput } from "./InvalidInput.js"
import { Timestamp } from "./Timestamp.js"

/**
 * Keyset pagination. Lists are ordered newest first by `(createdAt, id)`; a cursor is the key of the last row of
 * the previous page, so the cost of a page does not grow with the table and rows created meanwhile never shift
 * a page. The cursor is opaque to clients.
 */
export interface Cursor {
  readonly createdAt: DateTime.Utc
  readonly id: string
}

/** One page request: how many rows (1-100) and where to continue from. */
export interface PageRequest {
  readonly limit: number
  readonly after: Option.Option<Cursor>
}

/**
 * One page of a list, in the spec's envelope. `nextCursor` is present exactly when `hasMore` is. `totalCount` is
 * absent from lists that do not count (those whose tables grow without bound, such as transactions).
 */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly hasMore: boolean
  readonly nextCursor?: string
  readonly totalCount?: number
}

/** Default and maximum page sizes of every list. */
export const defaultLimit = 20
export const maxLimit = 100

// The cursor's text: base64url (unpadded) of the JSON `[createdAt, id]`. A forged one reaches the store only if
// the store can hold it: a timestamp of the years 0001-9999 and an id of storable text.
const CursorText = Schema.compose(
  Schema.StringFromBase64Url,
  Schema.parseJson(Schema.Tuple(Timestamp, FieldFormat.Text(255)))
)
const encodeCursorText = Schema.encodeSync(CursorText)
const decodeCursorText = Schema.decodeUnknown(CursorText)

/** The opaque text form of a cursor. */
export const encodeCursor = (cursor: Cursor): string => encodeCursorText([cursor.createdAt, cursor.id])

const invalidCursor = InvalidInput.withErrors([
  new FieldError({ field: "cursor", message: "must be a nextCursor value returned by a previous page" })
])

/** Reads a cursor produced by `encodeCursor`; anything else fails with `INVALID_INPUT` on the `cursor` field. */
export const decodeCursor = (text: string): Effect.Effect<Cursor, InvalidInput> =>
  decodeCursorText(text).pipe(
    Effect.map(([createdAt, id]) => ({ createdAt, id })),
    Effect.mapError(() => invalidCursor)
  )

/**
 * Builds a page from rows fetched with `limit + 1` (newest first): the extra row only tells that more exist.
 */
export const fromOverfetch = <A>(
  rows: ReadonlyArray<A>,
  request: PageRequest,
  keyOf: (row: A) => Cursor,
  totalCount?: number
): Page<A> => {
  const data = rows.slice(0, request.limit)
  const last = data[data.length - 1]
  const hasMore = rows.length > request.limit && last !== undefined
  const counted = totalCount === undefined ? {} : { totalCount }
  return hasMore ? { data, hasMore, nextCursor: encodeCursor(keyOf(last)), ...counted } : { data, hasMore, ...counted }
}

/** Whether a row sorts after the cursor in newest-first order, i.e. belongs to the following pages. */
export const isAfter = (key: Cursor, cursor: Cursor): boolean => {
  const byTime = DateTime.toEpochMillis(key.createdAt) - DateTime.toEpochMillis(cursor.createdAt)
  return byTime < 0 || (byTime === 0 && key.id < cursor.id)
}

/** Newest-first order on `(createdAt, id)`, for sorting in memory. */
export const compareNewestFirst = (a: Cursor, b: Cursor): number => {
  const byTime = DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt)
  return byTime !== 0 ? byTime : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/**
 * The page of the union of several lists, from one page of each: every list ordered by `(createdAt, id)` in
 * `sortOrder`, fetched after the same cursor with the same `request.limit`, and no key in two lists. The answer is
 * exactly the page that one list holding all their rows would give (the first `limit` rows of the union after the
 * cursor), its cursor the last row's key, valid for each list; it is not counted.
 */
export const merge = <A extends Cursor>(
  pages: ReadonlyArray<Page<A>>,
  request: PageRequest,
  sortOrder: "asc" | "desc"
): Page<A> => {
  // A list that has more holds only rows beyond its own last one, which is at or beyond the union's `limit`th row.
  const union = pages
    .flatMap((page) => page.data)
    .sort((a, b) => (sortOrder === "desc" ? compareNewestFirst(a, b) : compareNewestFirst(b, a)))
  const data = union.slice(0, request.limit)
  const last = data[data.length - 1]
  const hasMore = (union.length > request.limit || pages.some((page) => page.hasMore)) && last !== undefined
  return hasMore
    ? { data, hasMore, nextCursor: encodeCursor({ createdAt: last.createdAt, id: last.id }) }
    : { data, hasMore }
}
