import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, IncomingDecision, IncomingDecisionRepo, Platform, Transaction } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record, Returned } from "../internal/rows.js"

const ByTransaction = Schema.Struct({ platformId: Platform.PlatformId, transactionId: Transaction.TransactionId })
const Stored = Schema.Struct({ platformId: Platform.PlatformId, decision: IncomingDecision.IncomingDecision })

/**
 * `IncomingDecisionRepo` on the `incoming_decisions` table (migration `0035_incoming_decisions`), every statement
 * scoped by `platform_id`; records are decoded with the core schema on every read.
 *
 * Guarantees:
 * - `insert` is one `INSERT`; a transaction's second decision fails as `StoreFailure` and changes nothing.
 * - `decide` is one guarded `UPDATE … WHERE status = 'AWAITING'`: of concurrent decisions exactly one gets `true`
 *   (the others wait for its row lock, then find it decided), and in a unit of work that rolls back it is undone.
 */
export const make: Effect.Effect<
  Context.Tag.Service<IncomingDecisionRepo.IncomingDecisionRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Stored,
    execute: ({ platformId, decision }) =>
      Effect.flatMap(
        jsonText(decision),
        (json) =>
          sql`INSERT INTO incoming_decisions ${sql.insert({
            transaction_id: decision.transactionId,
            platform_id: platformId,
            status: decision.status,
            deadline_at: decision.deadlineAt,
            record: json
          })}`
      )
  })

  const find = SqlSchema.findOne({
    Request: ByTransaction,
    Result: record(IncomingDecision.IncomingDecision),
    execute: ({ platformId, transactionId }) =>
      sql`SELECT record FROM incoming_decisions WHERE platform_id = ${platformId} AND transaction_id = ${transactionId}`
  })

  const decide = SqlSchema.findOne({
    Request: Stored,
    Result: Returned,
    execute: ({ platformId, decision }) =>
      Effect.flatMap(
        jsonText(decision),
        (json) =>
          sql`UPDATE incoming_decisions SET status = ${decision.status}, record = ${json}::jsonb
            WHERE platform_id = ${platformId} AND transaction_id = ${decision.transactionId} AND status = 'AWAITING'
            RETURNING transaction_id AS id`
      )
  })

  return IncomingDecisionRepo.IncomingDecisionRepo.of({
    insert: (platformId, decision) =>
      insert({ platformId, decision }).pipe(Effect.mapError(Errors.StoreFailure.wrap("incomingDecisions.insert"))),
    find: (platformId, transactionId) =>
      find({ platformId, transactionId }).pipe(Effect.mapError(Errors.StoreFailure.wrap("incomingDecisions.find"))),
    decide: (platformId, decision) =>
      decide({ platformId, decision }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("incomingDecisions.decide"))
      )
  })
})

/** Provides `IncomingDecisionRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<IncomingDecisionRepo.IncomingDecisionRepo, never, SqlClient.SqlClient> = Layer.effect(
  IncomingDecisionRepo.IncomingDecisionRepo,
  make
)
