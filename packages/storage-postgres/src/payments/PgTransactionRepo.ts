import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Ledger, Page, Platform, Transaction, TransactionRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record, Returned } from "../internal/rows.js"
import { makePost } from "../internal/ledgerPosting.js"
import { storable } from "../internal/text.js"
import * as WriteBehind from "../internal/writeBehind.js"
import { Listing, listStatement, textValues } from "./internal/transactionPages.js"

const PostingId = Schema.OptionFromNullOr(Schema.String)

/** A `TransactionRepo.StoredTransaction` and the list keys derived from its record with core's own functions. */
const Row = Schema.Struct({
  platformId: Platform.PlatformId,
  stored: Schema.Struct({ transaction: Transaction.Transaction, postingId: PostingId }),
  sender: Schema.NullOr(Schema.String),
  receiver: Schema.String,
  reference: Schema.NullOr(Schema.String)
})

const rowOf = (platformId: Platform.PlatformId, stored: TransactionRepo.StoredTransaction) => ({
  platformId,
  stored,
  sender: Transaction.senderIdentifier(stored.transaction) ?? null,
  receiver: Transaction.receiverIdentifier(stored.transaction),
  reference: stored.transaction.reconciliationInstructions?.reference ?? null
})

/** The row of `SELECT record, posting_id`: the stored transaction. */
const StoredRow = Schema.Struct({ record: Transaction.Transaction, posting_id: PostingId }).pipe(
  Schema.rename({ record: "transaction", posting_id: "postingId" })
)

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: Transaction.TransactionId })

const keyOf = (transaction: Transaction.Transaction): Page.Cursor => ({
  createdAt: transaction.createdAt,
  id: transaction.id
})

/**
 * `TransactionRepo` on the `transactions` table (each record encoded in `record`, its posting in `posting_id`, and
 * the columns its list filters and orders by), every statement scoped by `platform_id`.
 *
 * Guarantees:
 * - `insert` is one `INSERT`; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `insertPosted` is one statement: `PgLedger`'s posting statement (the posting, its event into the outbox) with
 *   the transaction's `INSERT … SELECT` from the function's answer as one more CTE, writing a row only when the
 *   posting applied, with the posting's id.
 * - `transition` is one guarded `UPDATE … WHERE platform_id AND id AND status = from` that rewrites the record, the
 *   posting and every list column: of concurrent transitions from one status exactly one applies.
 * - `advance` is one guarded `UPDATE … RETURNING record, posting_id` that merges the status and its times into the
 *   record (`record || …`) and sets the status and posting columns (the list columns it leaves cannot change).
 * - `list` is one keyset `SELECT` by `(created_at, id)` in `sortOrder`, ids in byte order (`COLLATE "C"`), without
 *   a count; each filter has an index ending in `(created_at, id)` (migration `0019_payments`), so a page reads
 *   about `limit + 1` index entries at any depth, in either order (`internal/transactionPages.ts`). A filter value
 *   PostgreSQL's `text` cannot hold (NUL) matches nothing and reaches no statement.
 */
export const make: Effect.Effect<
  Context.Tag.Service<TransactionRepo.TransactionRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // The columns of a stored transaction, from its encoded form.
  const columns = ({ stored, sender, receiver, reference }: typeof Row.Encoded) =>
    Effect.map(jsonText(stored.transaction), (json) => ({
      customer_id: stored.transaction.customerId,
      platform_customer_id: stored.transaction.platformCustomerId ?? null,
      sender_identifier: sender,
      receiver_identifier: receiver,
      status: stored.transaction.status,
      type: stored.transaction.type,
      reference,
      posting_id: stored.postingId,
      record: json,
      created_at: stored.transaction.createdAt
    }))

  // Sent with the unit of work's other writes (`WriteBehind`).
  const insert = WriteBehind.encoded(sql, {
    Request: Row,
    operation: "transactions.insert",
    steps: (row) =>
      Effect.map(columns(row), (values) =>
        WriteBehind.single(
          "transaction",
          sql`INSERT INTO transactions ${sql.insert({ id: row.stored.transaction.id, platform_id: row.platformId, ...values })}`
        )
      )
  })

  const post = makePost(sql)
  const encodeRow = Schema.encode(Row)

  // The transaction's row, written only if the posting of the same statement applied (`posted`: its answer).
  const insertAlongside = (row: typeof Row.Type) =>
    Effect.flatMap(encodeRow(row), (encoded) =>
      Effect.map(columns(encoded), (values) => {
        const { posting_id: _posting, record: json, created_at: createdAt, ...text } = values
        const names = Object.keys(text)
        return sql`, inserted AS (INSERT INTO transactions
            (id, platform_id, ${sql.literal(names.join(", "))}, posting_id, record, created_at)
          SELECT ${encoded.stored.transaction.id}, ${encoded.platformId},
            ${sql.join(", ", false)(names.map((name) => sql`${text[name as keyof typeof text]}::text`))},
            posted.posting_id, ${json}::jsonb, ${createdAt}::timestamptz
          FROM posted WHERE posted.outcome = 'applied')`
      })
    )

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: StoredRow,
    execute: ({ platformId, id }) =>
      sql`SELECT record, posting_id FROM transactions WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(Transaction.Transaction),
    execute: (request) => listStatement(sql, request)
  })

  const transition = SqlSchema.findOne({
    Request: Schema.Struct({ id: Transaction.TransactionId, from: Transaction.TransactionStatus, next: Row }),
    Result: Returned,
    execute: ({ id, from, next }) =>
      Effect.flatMap(
        columns(next),
        (values) => sql`UPDATE transactions SET ${sql.update(values)}
            WHERE platform_id = ${next.platformId} AND id = ${id} AND status = ${from}
            RETURNING id`
      )
  })

  // The changed fields are merged into the record (`||` replaces top-level keys): no read, no rewrite of the rest.
  const advance = SqlSchema.findOne({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      id: Transaction.TransactionId,
      from: Transaction.TransactionStatus,
      status: Transaction.TransactionStatus,
      updatedAt: Schema.DateTimeUtc,
      settledAt: Schema.optional(Schema.DateTimeUtc),
      postingId: PostingId
    }),
    Result: StoredRow,
    execute: ({ platformId, id, from, status, updatedAt, settledAt, postingId }) =>
      Effect.flatMap(
        jsonText({ status, updatedAt, ...(settledAt === undefined ? {} : { settledAt }) }),
        (fields) => sql`UPDATE transactions SET status = ${status}, posting_id = ${postingId},
            record = record || ${fields}::jsonb
          WHERE platform_id = ${platformId} AND id = ${id} AND status = ${from}
          RETURNING record, posting_id`
      )
  })

  return TransactionRepo.TransactionRepo.of({
    insert: (platformId, stored) => insert(rowOf(platformId, stored)),

    insertPosted: (posting, transaction, event) =>
      Effect.flatMap(Ledger.validatePosting(posting), (valid) =>
        post(valid, {
          operation: "transactions.insertPosted",
          recorded: { event, postingIdAt: [], balancesAt: [] },
          alongside: insertAlongside(rowOf(posting.platformId, { transaction, postingId: Option.none() }))
        })
      ),

    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("transactions.findById"))),

    list: (platformId, filter, page) =>
      textValues(filter).every(storable)
        ? rows({ platformId, filter, page }).pipe(
            Effect.map((transactions) => Page.fromOverfetch(transactions, page, keyOf)),
            Effect.mapError(Errors.StoreFailure.wrap("transactions.list"))
          )
        : Effect.succeed(Page.fromOverfetch([], page, keyOf)),

    advance: (platformId, id, from, changes) =>
      advance({
        platformId,
        id,
        from,
        status: changes.status,
        updatedAt: changes.updatedAt,
        ...(changes.settledAt === undefined ? {} : { settledAt: changes.settledAt }),
        postingId: changes.postingId
      }).pipe(Effect.mapError(Errors.StoreFailure.wrap("transactions.advance"))),

    transition: (platformId, id, from, next) =>
      transition({ id, from, next: rowOf(platformId, next) }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("transactions.transition"))
      )
  })
})

/** Provides `TransactionRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<TransactionRepo.TransactionRepo, never, SqlClient.SqlClient> = Layer.effect(
  TransactionRepo.TransactionRepo,
  make
)
