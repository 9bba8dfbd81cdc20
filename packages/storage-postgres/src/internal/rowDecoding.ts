import { DateTime, Effect, Either, type ParseResult, Schema } from "effect"

/**
 * Builds the decoded row from a driver's row when the row has exactly the shape it expects (every value of the
 * type the schema accepts, every constraint met), and answers `undefined` for anything else, which the schema then
 * decodes (and reports).
 */
export type FastDecoder<A> = (row: unknown) => A | undefined

/**
 * Decodes rows a hot path reads thousands of times a second (a job claim, a webhook batch's sources): each row
 * with `fast`, else with `schema`, which gives the same value for every row `fast` accepts (each such decoder has a
 * property test holding it to its schema). A schema's decoding interprets the schema's AST with an `Either` per
 * value, several microseconds a row; `fast` is a few type tests.
 */
export const decodeRows = <A, I>(
  schema: Schema.Schema<A, I>,
  fast: FastDecoder<A>
): ((rows: ReadonlyArray<unknown>) => Effect.Effect<Array<A>, ParseResult.ParseError>) => {
  const slow = Schema.decodeUnknownEither(schema)
  return (rows) =>
    Effect.suspend(() => {
      const decoded: Array<A> = []
      for (const row of rows) {
        const quick = fast(row)
        if (quick !== undefined) {
          decoded.push(quick)
          continue
        }
        const checked = slow(row)
        if (Either.isLeft(checked)) return Effect.fail(checked.left)
        decoded.push(checked.right)
      }
      return Effect.succeed(decoded)
    })
}

/** A driver's row as an object of columns, or `undefined`. */
export const columnsOf = (row: unknown): { readonly [column: string]: unknown } | undefined =>
  typeof row === "object" && row !== null && !Array.isArray(row)
    ? (row as { readonly [column: string]: unknown })
    : undefined

/** A test of membership in a `Schema.Literal`'s `literals`. */
export const isOneOf = <const L extends ReadonlyArray<string>>(literals: L) => {
  const members: ReadonlySet<unknown> = new Set(literals)
  return (value: unknown): value is L[number] => members.has(value)
}

/** `Schema.Int`'s test. */
export const isInt = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value)

/** What `Schema.DateTimeUtcFromDate` decodes a `Date` column to, or `undefined`. */
export const dateTimeOf = (value: unknown): DateTime.Utc | undefined =>
  value instanceof Date && !Number.isNaN(value.getTime()) ? DateTime.unsafeMake(value) : undefined

/**
 * A `jsonb` object as the driver parsed it, for `Schema.Record({ key: Schema.String, value: Schema.Unknown })`
 * (a plain object: JSON's objects are), or `undefined`.
 */
export const jsonObjectOf = (value: unknown): { readonly [key: string]: unknown } | undefined =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
    ? (value as { readonly [key: string]: unknown })
    : undefined

/** A text array column whose every element is text, or `undefined`. */
export const textsOf = (value: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(value) && value.every((element) => typeof element === "string") ? value : undefined
