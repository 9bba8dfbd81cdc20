import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Agent, AgentPolicy, AgentRepo, Customer, Errors, Page, Platform } from "@payrail/core"
import { type Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const Row = Schema.Struct({
  id: Agent.AgentId,
  platformId: Platform.PlatformId,
  customerId: Customer.CustomerId,
  name: Schema.String,
  isPaused: Schema.Boolean,
  isConnected: Schema.Boolean,
  policy: AgentPolicy.AgentPolicy,
  tokenHash: Schema.NullOr(Schema.String),
  version: Schema.Int,
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
})

const CodeRow = Schema.Struct({
  codeHash: Schema.String,
  platformId: Platform.PlatformId,
  agentId: Agent.AgentId,
  createdAt: Schema.DateTimeUtcFromDate,
  expiresAt: Schema.DateTimeUtcFromDate,
  redeemedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  invalidatedAt: Schema.NullOr(Schema.DateTimeUtcFromDate)
})

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    customerId: Schema.optional(Schema.String),
    isPaused: Schema.optional(Schema.Boolean),
    isConnected: Schema.optional(Schema.Boolean),
    createdAfter: Schema.optional(Schema.DateTimeUtc),
    createdBefore: Schema.optional(Schema.DateTimeUtc),
    updatedAfter: Schema.optional(Schema.DateTimeUtc),
    updatedBefore: Schema.optional(Schema.DateTimeUtc)
  }),
  page: PageRequest
})

const toRecord = (row: typeof Row.Type): Agent.AgentRecord => ({ ...row, tokenHash: row.tokenHash ?? undefined })

const keyOf = (agent: Agent.AgentRecord): Page.Cursor => ({ createdAt: agent.createdAt, id: agent.id })

const columns = `id, platform_id AS "platformId", customer_id AS "customerId", name, is_paused AS "isPaused",
  is_connected AS "isConnected", policy, token_hash AS "tokenHash", version, created_at AS "createdAt",
  updated_at AS "updatedAt"`

/**
 * `AgentRepo` on the `agents` and `agent_device_codes` tables (migration `0030_agents`), every agent statement
 * scoped by `platform_id` and blind to deleted agents (`deleted_at IS NULL`).
 *
 * Guarantees:
 * - `update` is one `UPDATE … WHERE version = expected`: of concurrent updates from one version exactly one applies.
 * - `delete` is one statement that marks the agent deleted, drops its token hash and invalidates its open codes.
 * - `insertDeviceCode` is one statement that invalidates the agent's open codes and inserts the new one.
 * - `redeemDeviceCode` is one statement that locks the agent's row (live and not connected), then the code's (open
 *   and unexpired, both conditions checked again on the rows' latest versions once locked), then marks both. Every
 *   statement that changes an agent's codes takes the agent's row first (`delete`) or only the codes'
 *   (`insertDeviceCode`), so none deadlocks: of concurrent redeems exactly one wins, a redeem racing a new code
 *   either redeems before it (the new one then finds no open code to replace) or finds its code invalidated, and
 *   a refused redeem changes nothing.
 */
export const make: Effect.Effect<Context.Tag.Service<AgentRepo.AgentRepo>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const select = sql.unsafe(`SELECT ${columns} FROM agents`)

    const findById = SqlSchema.findOne({
      Request: Schema.Struct({ platformId: Platform.PlatformId, id: Agent.AgentId }),
      Result: Row,
      execute: ({ id, platformId }) =>
        sql`${select} WHERE platform_id = ${platformId} AND id = ${id} AND deleted_at IS NULL`
    })

    const findByToken = SqlSchema.findOne({
      Request: Schema.String,
      Result: Row,
      execute: (tokenHash) => sql`${select} WHERE token_hash = ${tokenHash} AND deleted_at IS NULL`
    })

    const matching = ({ filter, platformId }: typeof Listing.Encoded): Array<Fragment> => {
      const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`, sql`deleted_at IS NULL`]
      if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
      if (filter.isPaused !== undefined) conditions.push(sql`is_paused = ${filter.isPaused}`)
      if (filter.isConnected !== undefined) conditions.push(sql`is_connected = ${filter.isConnected}`)
      if (filter.createdAfter !== undefined) conditions.push(sql`created_at >= ${filter.createdAfter}::timestamptz`)
      if (filter.createdBefore !== undefined) conditions.push(sql`created_at <= ${filter.createdBefore}::timestamptz`)
      if (filter.updatedAfter !== undefined) conditions.push(sql`updated_at >= ${filter.updatedAfter}::timestamptz`)
      if (filter.updatedBefore !== undefined) conditions.push(sql`updated_at <= ${filter.updatedBefore}::timestamptz`)
      return conditions
    }

    const rows = SqlSchema.findAll({
      Request: Listing,
      Result: Row,
      execute: (request) => sql`${select}
          WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
          ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
    })

    const count = SqlSchema.single({
      Request: Listing,
      Result: Count,
      execute: (request) => sql`SELECT count(*)::int AS count FROM agents WHERE ${sql.and(matching(request))}`
    })

    const update = SqlSchema.findOne({
      Request: Schema.Struct({
        next: Schema.Struct({
          id: Agent.AgentId,
          platformId: Platform.PlatformId,
          name: Schema.String,
          isPaused: Schema.Boolean,
          isConnected: Schema.Boolean,
          policy: AgentPolicy.AgentPolicy,
          tokenHash: Schema.NullOr(Schema.String),
          updatedAt: Schema.DateTimeUtc
        }),
        expectedVersion: Schema.Int
      }),
      Result: Returned,
      execute: ({ expectedVersion, next }) =>
        Effect.flatMap(
          jsonText(next.policy),
          (policy) => sql`UPDATE agents SET name = ${next.name}, is_paused = ${next.isPaused},
              is_connected = ${next.isConnected}, policy = ${policy}::jsonb, token_hash = ${next.tokenHash},
              updated_at = ${next.updatedAt}::timestamptz, version = ${expectedVersion + 1}
            WHERE platform_id = ${next.platformId} AND id = ${next.id} AND version = ${expectedVersion}
              AND deleted_at IS NULL
            RETURNING id`
        )
    })

    const remove = SqlSchema.findOne({
      Request: Schema.Struct({ platformId: Platform.PlatformId, id: Agent.AgentId, at: Schema.DateTimeUtc }),
      Result: Returned,
      execute: ({ at, id, platformId }) =>
        sql`WITH gone AS (
            UPDATE agents SET deleted_at = ${at}::timestamptz, token_hash = NULL, version = version + 1
            WHERE platform_id = ${platformId} AND id = ${id} AND deleted_at IS NULL
            RETURNING id
          ), codes AS (
            UPDATE agent_device_codes SET invalidated_at = ${at}::timestamptz
            WHERE agent_id IN (SELECT id FROM gone) AND redeemed_at IS NULL AND invalidated_at IS NULL
          )
          SELECT id FROM gone`
    })

    const insertCode = SqlSchema.void({
      Request: CodeRow,
      execute: (code) =>
        sql`WITH replaced AS (
            UPDATE agent_device_codes SET invalidated_at = ${code.createdAt}::timestamptz
            WHERE platform_id = ${code.platformId} AND agent_id = ${code.agentId}
              AND redeemed_at IS NULL AND invalidated_at IS NULL
          )
          INSERT INTO agent_device_codes (code_hash, platform_id, agent_id, created_at, expires_at)
          VALUES (${code.codeHash}, ${code.platformId}, ${code.agentId}, ${code.createdAt}::timestamptz,
            ${code.expiresAt}::timestamptz)`
    })

    const findCode = SqlSchema.findOne({
      Request: Schema.String,
      Result: CodeRow,
      execute: (codeHash) =>
        sql`SELECT code_hash AS "codeHash", platform_id AS "platformId", agent_id AS "agentId",
            created_at AS "createdAt", expires_at AS "expiresAt", redeemed_at AS "redeemedAt",
            invalidated_at AS "invalidatedAt"
          FROM agent_device_codes WHERE code_hash = ${codeHash}`
    })

    const redeem = SqlSchema.findOne({
      Request: Schema.Struct({ codeHash: Schema.String, tokenHash: Schema.String, at: Schema.DateTimeUtc }),
      Result: Returned,
      execute: ({ at, codeHash, tokenHash }) =>
        sql`WITH code AS MATERIALIZED (
            SELECT agent_id, platform_id FROM agent_device_codes WHERE code_hash = ${codeHash}
          ), agent AS MATERIALIZED (
            SELECT a.id FROM agents AS a JOIN code AS c ON a.id = c.agent_id AND a.platform_id = c.platform_id
            WHERE a.deleted_at IS NULL AND NOT a.is_connected
            FOR UPDATE OF a
          ), open AS MATERIALIZED (
            SELECT code_hash, agent_id FROM agent_device_codes
            WHERE code_hash = ${codeHash} AND redeemed_at IS NULL AND invalidated_at IS NULL
              AND expires_at > ${at}::timestamptz AND agent_id IN (SELECT id FROM agent)
            FOR UPDATE
          ), connected AS (
            UPDATE agents SET is_connected = true, token_hash = ${tokenHash}, updated_at = ${at}::timestamptz,
              version = version + 1
            WHERE id IN (SELECT agent_id FROM open)
            RETURNING id
          )
          UPDATE agent_device_codes SET redeemed_at = ${at}::timestamptz
          WHERE code_hash IN (SELECT code_hash FROM open) AND EXISTS (SELECT 1 FROM connected)
          RETURNING code_hash AS id`
    })

    const fail = Errors.StoreFailure.wrap
    return AgentRepo.AgentRepo.of({
      insert: (agent) =>
        Effect.flatMap(
          jsonText(Schema.encodeSync(AgentPolicy.AgentPolicy)(agent.policy)),
          (policy) =>
            sql`INSERT INTO agents ${sql.insert({
              id: agent.id,
              platform_id: agent.platformId,
              customer_id: agent.customerId,
              name: agent.name,
              is_paused: agent.isPaused,
              is_connected: agent.isConnected,
              policy,
              token_hash: agent.tokenHash ?? null,
              version: 1,
              created_at: DateTime.formatIso(agent.createdAt),
              updated_at: DateTime.formatIso(agent.updatedAt),
              deleted_at: null
            })}`
        ).pipe(Effect.asVoid, Effect.mapError(fail("agents.insert"))),
      findById: (platformId, id) =>
        findById({ platformId, id }).pipe(Effect.map(Option.map(toRecord)), Effect.mapError(fail("agents.findById"))),
      list: (platformId, filter, page) =>
        filter.customerId !== undefined && !storable(filter.customerId)
          ? Effect.succeed(Page.fromOverfetch([], page, keyOf, 0))
          : Effect.zipWith(rows({ platformId, filter, page }), count({ platformId, filter, page }), (found, total) =>
              Page.fromOverfetch(found.map(toRecord), page, keyOf, total)
            ).pipe(Effect.mapError(fail("agents.list"))),
      update: (next, expectedVersion) =>
        update({ next: { ...next, tokenHash: next.tokenHash ?? null }, expectedVersion }).pipe(
          Effect.map(Option.isSome),
          Effect.mapError(fail("agents.update"))
        ),
      delete: (platformId, id, at) =>
        remove({ platformId, id, at }).pipe(Effect.map(Option.isSome), Effect.mapError(fail("agents.delete"))),
      findByTokenHash: (tokenHash) =>
        findByToken(tokenHash).pipe(Effect.map(Option.map(toRecord)), Effect.mapError(fail("agents.findByTokenHash"))),
      insertDeviceCode: (code) =>
        insertCode({ ...code, redeemedAt: null, invalidatedAt: null }).pipe(
          Effect.mapError(fail("agentDeviceCodes.insert"))
        ),
      findDeviceCode: (codeHash) =>
        findCode(codeHash).pipe(
          Effect.map(
            Option.map((row) => ({
              ...row,
              redeemedAt: row.redeemedAt ?? undefined,
              invalidatedAt: row.invalidatedAt ?? undefined
            }))
          ),
          Effect.mapError(fail("agentDeviceCodes.find"))
        ),
      redeemDeviceCode: (codeHash, tokenHash, at) =>
        redeem({ codeHash, tokenHash, at }).pipe(
          Effect.map(Option.isSome),
          Effect.mapError(fail("agentDeviceCodes.redeem"))
        )
    })
  }
)

/** Provides `AgentRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AgentRepo.AgentRepo, never, SqlClient.SqlClient> = Layer.effect(
  AgentRepo.AgentRepo,
  make
)
