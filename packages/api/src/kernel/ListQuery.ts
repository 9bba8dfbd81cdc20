import { Schema } from "effect"
import { Page, Timestamp } from "@payrail/core"

const decimalDigits = "^[1-9][0-9]{0,2}$"

/**
 * A page size in the query: plain decimal digits without sign, spaces, leading zeros, exponent or radix prefix
 * (`0x10` and `1e2` are field errors, not 16 and 100), from 1 to the maximum page size.
 */
export const Limit = Schema.String.pipe(
  Schema.filter((text) => new RegExp(decimalDigits).test(text), {
    description: `a decimal integer from 1 to ${Page.maxLimit}`,
    jsonSchema: { pattern: decimalDigits }
  }),
  Schema.compose(Schema.NumberFromString),
  Schema.between(1, Page.maxLimit, { description: `a decimal integer from 1 to ${Page.maxLimit}` })
)

/** A timestamp bound of a list filter (inclusive), in the years 0001 to 9999 the store holds. */
export const TimestampBound = Timestamp.Timestamp.annotations({
  description: "an ISO 8601 timestamp in the years 0001 to 9999"
})

/** `limit` (1-100, default 20) and `cursor` (a previous page's `nextCursor`), as every list takes them. */
export const pageParams = {
  limit: Schema.optional(
    Limit.annotations({ description: `Page size, 1 to ${Page.maxLimit} (default ${Page.defaultLimit})` })
  ),
  cursor: Schema.optional(Schema.String.annotations({ description: "The `nextCursor` of the previous page" }))
}

/** The list envelope `{data, hasMore, nextCursor?, totalCount?}`. */
export const ListResponse = <A, I>(item: Schema.Schema<A, I>, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item),
    hasMore: Schema.Boolean,
    nextCursor: Schema.optional(Schema.String),
    totalCount: Schema.optional(Schema.Int)
  }).annotations({ identifier })
