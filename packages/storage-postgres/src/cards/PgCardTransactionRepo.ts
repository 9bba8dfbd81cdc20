import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { CardTransaction, CardTransactionRepo, Errors, Page, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { beyondCursor, orderBy, overfetch, PageRequest } from "../internal/keyset.js"
import { record, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const Row = Schema.Struct({
  platformId: Platform.PlatformId,
  record: CardTransaction.CardTransaction,
  version: Schema.Int,
  holdPostingId: Schema.NullOr(Schema.String),
  holdAmount: Schema.NumberFromString
})

const Write = Schema.Struct({
  platformId: Platform.PlatformId,
  transaction: CardTransaction.CardTransaction,
  version: Schema.Int,
  holdPostingId: Schema.NullOr(Schema.String),
  holdAmount: Schema.Int
})

const Update = Schema.Struct({ ...Write.fields, expectedVersion: Schema.Int })

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    cardId: Schema.optional(Schema.String),
    customerId: Schema.optional(Schema.String),
    platformCustomerId: Schema.optional(Schema.String),
    accountId: Schema.optional(Schema.String),
    status: Schema.optional(CardTransaction.CardTransactionStatus),
    startDate: Schema.optional(Schema.DateTimeUtc),
    endDate: Schema.optional(Schema.DateTimeUtc),
    sortOrder: Schema.Literal("asc", "desc")
  }),
  page: PageRequest
})

const keyOf = (row: CardTransaction.CardTransaction): Page.Cursor => ({ createdAt: row.createdAt, id: row.id })

const select = `SELECT platform_id AS "platformId", record, version, hold_posting_id AS "holdPostingId",
  hold_amount::text AS "holdAmount" FROM card_transactions`

/**
 * `CardTransactionRepo` on the `card_transactions` table (migration `0031_cards`), every statement scoped by
 * `platform_id`.
 *
 * Guarantees: `insert` is one `INSERT` (a second insert of an id fails as `StoreFailure`); `update` is one guarded
 * `UPDATE … WHERE version = expected`, so of concurrent updates from one version exactly one applies; `list` is one
 * keyset `SELECT` in either order on an index per filter, without a count.
 */
export const make: Effect.Effect<
  Context.Tag.Service<CardTransactionRepo.CardTransactionRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const columns = (write: typeof Write.Encoded) =>
    Effect.map(jsonText(write.transaction), (json) => ({
      card_id: write.transaction.cardId,
      customer_id: write.transaction.customerId,
      platform_customer_id: write.transaction.platformCustomerId ?? null,
      account_id: write.transaction.accountId,
      status: write.transaction.status,
      version: write.version,
      hold_posting_id: write.holdPostingId,
      hold_amount: write.holdAmount,
      record: json,
      created_at: write.transaction.createdAt
    }))

  const insert = SqlSchema.void({
    Request: Write,
    execute: (write) =>
      Effect.flatMap(
        columns(write),
        (values) =>
          sql`INSERT INTO card_transactions ${sql.insert({ id: write.transaction.id, platform_id: write.platformId, ...values })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String }),
    Result: Row,
    execute: ({ id, platformId }) => sql`${sql.unsafe(select)} WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const matching = ({ filter, platformId }: typeof Listing.Encoded): Array<Fragment> => {
    const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
    if (filter.cardId !== undefined) conditions.push(sql`card_id = ${filter.cardId}`)
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.platformCustomerId !== undefined)
      conditions.push(sql`platform_customer_id = ${filter.platformCustomerId}`)
    if (filter.accountId !== undefined) conditions.push(sql`account_id = ${filter.accountId}`)
    if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
    if (filter.startDate !== undefined) conditions.push(sql`created_at >= ${filter.startDate}::timestamptz`)
    if (filter.endDate !== undefined) conditions.push(sql`created_at <= ${filter.endDate}::timestamptz`)
    return conditions
  }

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(CardTransaction.CardTransaction),
    execute: (request) => sql`SELECT record FROM card_transactions
        WHERE ${sql.and([...matching(request), ...beyondCursor(sql, request.page, request.filter.sortOrder)])}
        ${orderBy(sql, request.filter.sortOrder)} LIMIT ${overfetch(request.page)}`
  })

  const update = SqlSchema.findOne({
    Request: Update,
    Result: Returned,
    execute: (request) =>
      Effect.flatMap(
        columns(request),
        (values) => sql`UPDATE card_transactions SET ${sql.update(values)}
            WHERE platform_id = ${request.platformId} AND id = ${request.transaction.id}
              AND version = ${request.expectedVersion}
            RETURNING id`
      )
  })

  const toWrite = (stored: CardTransaction.StoredCardTransaction): typeof Write.Type => ({
    platformId: Platform.PlatformId.make(stored.platformId),
    transaction: stored.transaction,
    version: stored.version,
    holdPostingId: stored.holdPostingId ?? null,
    holdAmount: stored.holdAmount
  })

  const fail = Errors.StoreFailure.wrap
  const filterStorable = (filter: CardTransaction.CardTransactionFilter) =>
    [filter.cardId, filter.customerId, filter.platformCustomerId, filter.accountId].every(
      (value) => value === undefined || storable(value)
    )
  return CardTransactionRepo.CardTransactionRepo.of({
    insert: (stored) => insert(toWrite(stored)).pipe(Effect.mapError(fail("cardTransactions.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(
        Effect.map(
          Option.map((row): CardTransaction.StoredCardTransaction => ({
            platformId: row.platformId,
            transaction: row.record,
            version: row.version,
            holdPostingId: row.holdPostingId ?? undefined,
            holdAmount: row.holdAmount
          }))
        ),
        Effect.mapError(fail("cardTransactions.findById"))
      ),
    list: (platformId, filter, page) =>
      !filterStorable(filter)
        ? Effect.succeed(Page.fromOverfetch([], page, keyOf))
        : rows({ platformId, filter, page }).pipe(
            Effect.map((found) => Page.fromOverfetch(found, page, keyOf)),
            Effect.mapError(fail("cardTransactions.list"))
          ),
    update: (next, expectedVersion) =>
      update({ ...toWrite(next), expectedVersion }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(fail("cardTransactions.update"))
      )
  })
})

/** Provides `CardTransactionRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<CardTransactionRepo.CardTransactionRepo, never, SqlClient.SqlClient> = Layer.effect(
  CardTransactionRepo.CardTransactionRepo,
  make
)
