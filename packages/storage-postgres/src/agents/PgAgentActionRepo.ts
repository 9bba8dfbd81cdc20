import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import {
  Agent,
  AgentAction,
  AgentActionRepo,
  Customer,
  Errors,
  Page,
  Platform,
  Quote,
  Transaction
} from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { beyondCursor, orderBy, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const TransferDetails = Schema.Struct({
  ...AgentAction.AgentTransferDetails.fields,
  paymentRail: Schema.optionalWith(Schema.String, { exact: true })
})

const Row = Schema.Struct({
  id: AgentAction.AgentActionId,
  platformId: Platform.PlatformId,
  agentId: Agent.AgentId,
  customerId: Customer.CustomerId,
  platformCustomerId: Schema.String,
  status: AgentAction.AgentActionStatus,
  type: AgentAction.AgentActionType,
  quoteId: Schema.NullOr(Quote.QuoteId),
  transferDetails: Schema.NullOr(TransferDetails),
  transactionId: Schema.NullOr(Transaction.TransactionId),
  executed: Schema.Boolean,
  rejectionReason: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(AgentAction.AgentActionFailureReason),
  expiresAt: Schema.DateTimeUtcFromDate,
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
})

// The same columns as bound parameters: timestamps as ISO-8601 text, the transfer as JSON text.
const Values = Schema.Struct({
  ...Row.fields,
  transferDetails: Schema.NullOr(Schema.parseJson(TransferDetails)),
  expiresAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
})

const orNull = <A>(value: A | undefined): A | null => value ?? null

const toValues = (action: AgentAction.StoredAgentAction): typeof Values.Type => ({
  ...action,
  quoteId: orNull(action.quoteId),
  transferDetails: orNull(action.transferDetails),
  transactionId: orNull(action.transactionId),
  rejectionReason: orNull(action.rejectionReason),
  failureReason: orNull(action.failureReason)
})

const toStored = (row: typeof Row.Type): AgentAction.StoredAgentAction => ({
  ...row,
  quoteId: row.quoteId ?? undefined,
  transferDetails: row.transferDetails ?? undefined,
  transactionId: row.transactionId ?? undefined,
  rejectionReason: row.rejectionReason ?? undefined,
  failureReason: row.failureReason ?? undefined
})

const keyOf = (action: AgentAction.StoredAgentAction): Page.Cursor => ({ createdAt: action.createdAt, id: action.id })

const select = `SELECT id, platform_id AS "platformId", agent_id AS "agentId", customer_id AS "customerId",
  platform_customer_id AS "platformCustomerId", status, type, quote_id AS "quoteId",
  transfer_details AS "transferDetails", transaction_id AS "transactionId", executed,
  rejection_reason AS "rejectionReason", failure_reason AS "failureReason", expires_at AS "expiresAt",
  created_at AS "createdAt", updated_at AS "updatedAt" FROM agent_actions`

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    agentId: Schema.optional(Schema.String),
    customerId: Schema.optional(Schema.String),
    status: Schema.optional(AgentAction.AgentActionStatus),
    createdAfter: Schema.optional(Schema.DateTimeUtc),
    createdBefore: Schema.optional(Schema.DateTimeUtc)
  }),
  page: PageRequest,
  sortOrder: Schema.Literal("asc", "desc")
})

/**
 * `AgentActionRepo` on the `agent_actions` table (migration `0030_agents`), every statement scoped by `platform_id`.
 *
 * Guarantees: `insert` is one `INSERT` (a second insert of an id fails as `StoreFailure`); `transition` is one
 * guarded `UPDATE … WHERE status = from`, so of concurrent transitions out of one status exactly one applies;
 * `list` is one keyset `SELECT` in either order on an index per filter, and one count.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AgentActionRepo.AgentActionRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const columnsOf = (values: typeof Values.Encoded) => ({
    agent_id: values.agentId,
    customer_id: values.customerId,
    platform_customer_id: values.platformCustomerId,
    status: values.status,
    type: values.type,
    quote_id: values.quoteId,
    transfer_details: values.transferDetails,
    transaction_id: values.transactionId,
    executed: values.executed,
    rejection_reason: values.rejectionReason,
    failure_reason: values.failureReason,
    expires_at: values.expiresAt,
    created_at: values.createdAt,
    updated_at: values.updatedAt
  })

  const insert = SqlSchema.void({
    Request: Values,
    execute: (values) =>
      sql`INSERT INTO agent_actions ${sql.insert({ id: values.id, platform_id: values.platformId, ...columnsOf(values) })}`
  })

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String }),
    Result: Row,
    execute: ({ id, platformId }) => sql`${sql.unsafe(select)} WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const findByTransaction = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, transactionId: Schema.String }),
    Result: Row,
    execute: ({ platformId, transactionId }) =>
      sql`${sql.unsafe(select)} WHERE platform_id = ${platformId} AND transaction_id = ${transactionId}
          ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT 1`
  })

  const matching = ({ filter, platformId }: typeof Listing.Encoded): Array<Fragment> => {
    const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
    if (filter.agentId !== undefined) conditions.push(sql`agent_id = ${filter.agentId}`)
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
    if (filter.createdAfter !== undefined) conditions.push(sql`created_at >= ${filter.createdAfter}::timestamptz`)
    if (filter.createdBefore !== undefined) conditions.push(sql`created_at <= ${filter.createdBefore}::timestamptz`)
    return conditions
  }

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: Row,
    execute: (request) => sql`${sql.unsafe(select)}
          WHERE ${sql.and([...matching(request), ...beyondCursor(sql, request.page, request.sortOrder)])}
          ${orderBy(sql, request.sortOrder)} LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => sql`SELECT count(*)::int AS count FROM agent_actions WHERE ${sql.and(matching(request))}`
  })

  const transition = SqlSchema.findOne({
    Request: Schema.Struct({ from: AgentAction.AgentActionStatus, next: Values }),
    Result: Returned,
    execute: ({ from, next }) =>
      sql`UPDATE agent_actions SET ${sql.update(columnsOf(next))}
          WHERE platform_id = ${next.platformId} AND id = ${next.id} AND status = ${from}
          RETURNING id`
  })

  const fail = Errors.StoreFailure.wrap
  const filterStorable = (filter: AgentAction.AgentActionFilter) =>
    [filter.agentId, filter.customerId].every((value) => value === undefined || storable(value))
  return AgentActionRepo.AgentActionRepo.of({
    insert: (action) => insert(toValues(action)).pipe(Effect.mapError(fail("agentActions.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(
        Effect.map(Option.map(toStored)),
        Effect.mapError(fail("agentActions.findById"))
      ),
    findByTransactionId: (platformId, transactionId) =>
      findByTransaction({ platformId, transactionId }).pipe(
        Effect.map(Option.map(toStored)),
        Effect.mapError(fail("agentActions.findByTransactionId"))
      ),
    list: (platformId, filter, page, sortOrder) =>
      !filterStorable(filter)
        ? Effect.succeed(Page.fromOverfetch([], page, keyOf, 0))
        : Effect.zipWith(
            rows({ platformId, filter, page, sortOrder }),
            count({ platformId, filter, page, sortOrder }),
            (found, total) => Page.fromOverfetch(found.map(toStored), page, keyOf, total)
          ).pipe(Effect.mapError(fail("agentActions.list"))),
    transition: (from, next) =>
      transition({ from, next: toValues(next) }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(fail("agentActions.transition"))
      )
  })
})

/** Provides `AgentActionRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AgentActionRepo.AgentActionRepo, never, SqlClient.SqlClient> = Layer.effect(
  AgentActionRepo.AgentActionRepo,
  make
)
