import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { DelegatedKey, DelegatedKeyRepo, Errors, InternalAccount, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record, Returned } from "../internal/rows.js"

const Stored = Schema.Struct({ platformId: Platform.PlatformId, key: DelegatedKey.DelegatedKey })
const ById = Schema.Struct({ platformId: Platform.PlatformId, id: DelegatedKey.DelegatedKeyId })
const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  accountId: Schema.optional(InternalAccount.InternalAccountId),
  cardId: Schema.optional(Schema.String),
  signersOnly: Schema.Boolean
})

/**
 * `DelegatedKeyRepo` on the `delegated_keys` table (migration `0035_incoming_decisions`), every statement scoped by
 * `platform_id`; records are decoded with the core schema on every read.
 *
 * Guarantees:
 * - `insert` is one `INSERT … ON CONFLICT DO NOTHING`: the partial unique index on (platform, account, card) over
 *   non-revoked keys admits one live key per wallet and card, so of concurrent inserts exactly one answers `true`.
 * - `revoke` is one guarded `UPDATE … WHERE status <> 'REVOKED'` that sets the status in the column and the record.
 * - `list` and `listSigners` read oldest first on `delegated_keys_account_idx`.
 */
export const make: Effect.Effect<
  Context.Tag.Service<DelegatedKeyRepo.DelegatedKeyRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.findOne({
    Request: Stored,
    Result: Returned,
    execute: ({ key, platformId }) =>
      Effect.flatMap(
        jsonText(key),
        (json) =>
          sql`INSERT INTO delegated_keys ${sql.insert({
            id: key.id,
            platform_id: platformId,
            account_id: key.accountId,
            card_id: key.cardId ?? "",
            status: key.status,
            record: json,
            created_at: key.createdAt
          })} ON CONFLICT DO NOTHING RETURNING id`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: record(DelegatedKey.DelegatedKey),
    execute: ({ id, platformId }) =>
      sql`SELECT record FROM delegated_keys WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const matching = (request: typeof Listing.Encoded): Array<Fragment> => {
    const conditions: Array<Fragment> = [sql`platform_id = ${request.platformId}`]
    if (request.accountId !== undefined) conditions.push(sql`account_id = ${request.accountId}`)
    if (request.cardId !== undefined) conditions.push(sql`card_id = ${request.cardId}`)
    if (request.signersOnly) conditions.push(sql`status = 'ACTIVE'`)
    return conditions
  }

  const list = SqlSchema.findAll({
    Request: Listing,
    Result: record(DelegatedKey.DelegatedKey),
    execute: (request) =>
      sql`SELECT record FROM delegated_keys WHERE ${sql.and(matching(request))} ORDER BY created_at, id`
  })

  const revoke = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, at: Schema.DateTimeUtc }),
    Result: record(DelegatedKey.DelegatedKey),
    execute: ({ at, id, platformId }) =>
      sql`UPDATE delegated_keys
        SET status = 'REVOKED',
          record = record || jsonb_build_object('status', 'REVOKED', 'updatedAt', ${at}::text)
        WHERE platform_id = ${platformId} AND id = ${id} AND status <> 'REVOKED'
        RETURNING record`
  })

  const failure = Errors.StoreFailure.wrap
  return DelegatedKeyRepo.DelegatedKeyRepo.of({
    insert: (platformId, key) =>
      insert({ platformId, key }).pipe(Effect.map(Option.isSome), Effect.mapError(failure("delegatedKeys.insert"))),
    findById: (platformId, id) => findById({ platformId, id }).pipe(Effect.mapError(failure("delegatedKeys.findById"))),
    list: (platformId, filter) =>
      list({ platformId, ...filter, signersOnly: false }).pipe(Effect.mapError(failure("delegatedKeys.list"))),
    listSigners: (platformId, accountId) =>
      list({ platformId, accountId, signersOnly: true }).pipe(Effect.mapError(failure("delegatedKeys.listSigners"))),
    revoke: (platformId, id, at) =>
      revoke({ platformId, id, at }).pipe(Effect.mapError(failure("delegatedKeys.revoke")))
  })
})

/** Provides `DelegatedKeyRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<DelegatedKeyRepo.DelegatedKeyRepo, never, SqlClient.SqlClient> = Layer.effect(
  DelegatedKeyRepo.DelegatedKeyRepo,
  make
)
