import { Schema } from "effect"
import { Page } from "@payrail/core"

/** `limit` (1-100, default 20) and `cursor` (a previous page's `nextCursor`), as every list takes them. */
export const pageParams = {
  limit: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.int({ description: "an integer" }),
      Schema.between(1, Page.maxLimit, { description: `an integer from 1 to ${Page.maxLimit}` })
    ).annotations({ description: `Page size, 1 to ${Page.maxLimit} (default ${Page.defaultLimit})` })
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
