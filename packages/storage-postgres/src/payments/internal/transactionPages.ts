import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment, Statement } from "@effect/sql/Statement"
import { Platform, Transaction, type TransactionRepo } from "@payrail/core"
import { Schema } from "effect"
import { beyondCursor, orderBy, overfetch, PageRequest } from "../../internal/keyset.js"

/** A `TransactionRepo.list` call as a request schema. */
export const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    customerId: Schema.optional(Schema.String),
    platformCustomerId: Schema.optional(Schema.String),
    accountIdentifier: Schema.optional(Schema.String),
    senderAccountIdentifier: Schema.optional(Schema.String),
    receiverAccountIdentifier: Schema.optional(Schema.String),
    status: Schema.optional(Transaction.TransactionStatus),
    type: Schema.optional(Transaction.TransactionType),
    reference: Schema.optional(Schema.String),
    startDate: Schema.optional(Schema.DateTimeUtc),
    endDate: Schema.optional(Schema.DateTimeUtc),
    sortOrder: Schema.Literal("asc", "desc")
  }),
  page: PageRequest
})
export type Listing = typeof Listing.Encoded

/** The text values of a filter, which PostgreSQL's `text` must be able to hold for the filter to match anything. */
export const textValues = (filter: TransactionRepo.TransactionFilter): ReadonlyArray<string> =>
  [
    filter.customerId,
    filter.platformCustomerId,
    filter.accountIdentifier,
    filter.senderAccountIdentifier,
    filter.receiverAccountIdentifier,
    filter.reference
  ].filter((value) => value !== undefined)

// Every condition but `accountIdentifier`, the keyset's included: each is an equality on the leading column of an
// index ending in (created_at, id), or a range on created_at.
const conditions = (sql: SqlClient.SqlClient, { platformId, filter, page }: Listing): Array<Fragment> => {
  const found: Array<Fragment> = [sql`platform_id = ${platformId}`]
  const add = <A>(value: A | undefined, condition: (value: A) => Fragment) => {
    if (value !== undefined) found.push(condition(value))
  }
  add(filter.customerId, (value) => sql`customer_id = ${value}`)
  add(filter.platformCustomerId, (value) => sql`platform_customer_id = ${value}`)
  add(filter.senderAccountIdentifier, (value) => sql`sender_identifier = ${value}`)
  add(filter.receiverAccountIdentifier, (value) => sql`receiver_identifier = ${value}`)
  add(filter.status, (value) => sql`status = ${value}`)
  add(filter.type, (value) => sql`type = ${value}`)
  add(filter.reference, (value) => sql`reference = ${value}`)
  add(filter.startDate, (value) => sql`created_at >= ${value}::timestamptz`)
  add(filter.endDate, (value) => sql`created_at <= ${value}::timestamptz`)
  return [...found, ...beyondCursor(sql, page, filter.sortOrder)]
}

/**
 * The one statement of a transaction page: `record` of at most `limit + 1` rows in `sortOrder`. Without
 * `accountIdentifier` it is one ordered index scan that starts at the cursor. With it, the first `limit + 1` rows
 * where the identifier sends and the first `limit + 1` where it receives are two such scans; the page is the first
 * `limit + 1` of both, each row once (a transfer between the identifier and itself is found by both scans). That
 * is a sort of at most `2 * (limit + 1)` rows, never of the table: the rows of the page are among those two lists,
 * since a row with at most `limit` rows before it in the union has at most `limit` before it in its own scan.
 */
export const listStatement = (sql: SqlClient.SqlClient, request: Listing): Statement<{ readonly record: unknown }> => {
  const order = orderBy(sql, request.filter.sortOrder)
  const limit = overfetch(request.page)
  const where = conditions(sql, request)
  const identifier = request.filter.accountIdentifier
  if (identifier === undefined) {
    return sql`SELECT record FROM transactions WHERE ${sql.and(where)} ${order} LIMIT ${limit}`
  }
  const side = (column: "sender_identifier" | "receiver_identifier") =>
    sql`(SELECT record, created_at, id FROM transactions
      WHERE ${sql.and([...where, sql`${sql(column)} = ${identifier}`])} ${order} LIMIT ${limit})`
  return sql`SELECT DISTINCT ON (created_at, id COLLATE "C") record
    FROM (${side("sender_identifier")} UNION ALL ${side("receiver_identifier")}) AS found
    ${order} LIMIT ${limit}`
}
