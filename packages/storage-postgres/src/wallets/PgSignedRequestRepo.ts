import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Platform, SignedRequest, SignedRequestRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record, Returned } from "../internal/rows.js"

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: SignedRequest.SignedRequestId })

/**
 * `SignedRequestRepo` on the `signed_requests` table (migration `0023_wallet_auth`), every statement but the purge
 * scoped by `platform_id`. Records are decoded with the core schema on every read.
 *
 * Guarantees:
 * - `insert` is one `INSERT`; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `consume` is one guarded `UPDATE … WHERE consumed_at IS NULL` that sets `consumedAt` in the record and the
 *   column: of concurrent consumers exactly one gets `true`, and in a unit of work that rolls back it is undone.
 * - `purgeExpired` is one statement deleting at most `limit` requests that expired before `before` (earliest
 *   first, on `signed_requests_expiry_idx`), across platforms; rows locked by a running unit of work are skipped.
 */
export const make: Effect.Effect<
  Context.Tag.Service<SignedRequestRepo.SignedRequestRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, request: SignedRequest.SignedRequest }),
    execute: ({ platformId, request }) =>
      Effect.flatMap(
        jsonText(request),
        (json) =>
          sql`INSERT INTO signed_requests ${sql.insert({
            id: request.id,
            platform_id: platformId,
            record: json,
            created_at: request.createdAt,
            expires_at: request.expiresAt,
            consumed_at: request.consumedAt ?? null
          })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: record(SignedRequest.SignedRequest),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM signed_requests WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const consume = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, at: Schema.DateTimeUtc }),
    Result: Returned,
    execute: ({ platformId, id, at }) =>
      sql`UPDATE signed_requests
        SET consumed_at = ${at}::timestamptz, record = record || jsonb_build_object('consumedAt', ${at}::text)
        WHERE platform_id = ${platformId} AND id = ${id} AND consumed_at IS NULL
        RETURNING id`
  })

  const purgeExpired = SqlSchema.single({
    Request: Schema.Struct({ before: Schema.DateTimeUtc, limit: Schema.Int }),
    Result: Count,
    execute: ({ before, limit }) =>
      sql`WITH expired AS (
          SELECT id FROM signed_requests WHERE expires_at < ${before}::timestamptz
          ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ), purged AS (
          DELETE FROM signed_requests WHERE id IN (SELECT id FROM expired) RETURNING 1
        ) SELECT count(*)::int AS count FROM purged`
  })

  return SignedRequestRepo.SignedRequestRepo.of({
    insert: (platformId, request) =>
      insert({ platformId, request }).pipe(Effect.mapError(Errors.StoreFailure.wrap("signedRequests.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("signedRequests.findById"))),
    consume: (platformId, id, at) =>
      consume({ platformId, id, at }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("signedRequests.consume"))
      ),
    purgeExpired: (before, limit) =>
      limit <= 0
        ? Effect.succeed(0)
        : purgeExpired({ before, limit }).pipe(Effect.mapError(Errors.StoreFailure.wrap("signedRequests.purgeExpired")))
  })
})

/** Provides `SignedRequestRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<SignedRequestRepo.SignedRequestRepo, never, SqlClient.SqlClient> = Layer.effect(
  SignedRequestRepo.SignedRequestRepo,
  make
)
