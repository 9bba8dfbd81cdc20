import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import {
  AuthMethod,
  AuthSession,
  AuthSessionRepo,
  Errors,
  InternalAccount,
  Platform,
  SignedRequest
} from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record, Returned } from "../internal/rows.js"

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: AuthSession.AuthSessionId })

const Outcome = Schema.Struct({ outcome: Schema.Literal("revoked", "requestUsed", "sessionInactive") })

/**
 * `AuthSessionRepo` on the `auth_sessions` table (migration `0023_wallet_auth`), every statement scoped by
 * `platform_id`. Records are decoded with the core schema on every read.
 *
 * Guarantees:
 * - `insert` is one `INSERT`; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `revoke` and `revokeIssuedBy` are single guarded `UPDATE`s (`revoked_at IS NULL AND expires_at > at`) that set
 *   `revokedAt` and `updatedAt` in the record and the `revoked_at` column: of concurrent revocations of one session
 *   exactly one applies.
 * - `listActive` is one `SELECT` of the account's sessions neither revoked nor expired at `now`, oldest first by
 *   `(created_at, id)` with ids in byte order; `listActiveBeside` the same with the account read from the session
 *   in the same statement.
 * - `revokeConsuming` is one statement (no transaction of its own: autocommit when called outside a unit of work)
 *   that locks the signed request and the session (`FOR UPDATE`), consumes the request only when it is open and
 *   the session active, and revokes the session only when the request was consumed: of concurrent calls on one
 *   request or session exactly one applies, the others wait for it and see its writes.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AuthSessionRepo.AuthSessionRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, session: AuthSession.AuthSession }),
    execute: ({ platformId, session }) =>
      Effect.flatMap(
        jsonText(session),
        (json) =>
          sql`INSERT INTO auth_sessions ${sql.insert({
            id: session.id,
            platform_id: platformId,
            account_id: session.accountId,
            auth_method_id: session.authMethodId,
            record: json,
            created_at: session.createdAt,
            expires_at: session.expiresAt,
            revoked_at: session.revokedAt ?? null
          })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: record(AuthSession.AuthSession),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM auth_sessions WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const listActive = SqlSchema.findAll({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      now: Schema.DateTimeUtc
    }),
    Result: record(AuthSession.AuthSession),
    execute: ({ platformId, accountId, now }) =>
      sql`SELECT record FROM auth_sessions
        WHERE platform_id = ${platformId} AND account_id = ${accountId}
          AND revoked_at IS NULL AND expires_at > ${now}::timestamptz
        ORDER BY created_at, id COLLATE "C"`
  })

  const listActiveBeside = SqlSchema.findAll({
    Request: Schema.Struct({ ...ById.fields, now: Schema.DateTimeUtc }),
    Result: record(AuthSession.AuthSession),
    execute: ({ platformId, id, now }) =>
      sql`SELECT s.record FROM auth_sessions s
        WHERE s.platform_id = ${platformId}
          AND s.account_id = (SELECT t.account_id FROM auth_sessions t WHERE t.platform_id = ${platformId} AND t.id = ${id})
          AND s.revoked_at IS NULL AND s.expires_at > ${now}::timestamptz
        ORDER BY s.created_at, s.id COLLATE "C"`
  })

  // The assignments of a revocation at `at`, the column and the record alike.
  const revokedAt = (at: string) =>
    sql`revoked_at = ${at}::timestamptz,
      record = record || jsonb_build_object('revokedAt', ${at}::text, 'updatedAt', ${at}::text)`

  const revoke = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, at: Schema.DateTimeUtc }),
    Result: Returned,
    execute: ({ platformId, id, at }) =>
      sql`UPDATE auth_sessions SET ${revokedAt(at)}
        WHERE platform_id = ${platformId} AND id = ${id} AND revoked_at IS NULL AND expires_at > ${at}::timestamptz
        RETURNING id`
  })

  // Both rows are locked first (the request's latest version is read even when it changed after this statement's
  // snapshot), then the request is consumed only when it is open and the session active, and the session revoked
  // only when the request was consumed: concurrent calls wait on the locks and see the winner's writes.
  const revokeConsuming = SqlSchema.single({
    Request: Schema.Struct({ ...ById.fields, requestId: SignedRequest.SignedRequestId, at: Schema.DateTimeUtc }),
    Result: Outcome,
    execute: ({ platformId, id, requestId, at }) =>
      sql`WITH request AS (
          SELECT id, consumed_at IS NULL AS open FROM signed_requests
          WHERE platform_id = ${platformId} AND id = ${requestId} FOR UPDATE
        ), target AS (
          SELECT id FROM auth_sessions
          WHERE platform_id = ${platformId} AND id = ${id} AND revoked_at IS NULL AND expires_at > ${at}::timestamptz
          FOR UPDATE
        ), consumed AS (
          UPDATE signed_requests
          SET consumed_at = ${at}::timestamptz, record = record || jsonb_build_object('consumedAt', ${at}::text)
          WHERE platform_id = ${platformId} AND id = (SELECT id FROM request WHERE open)
            AND EXISTS (SELECT 1 FROM target)
          RETURNING id
        ), revoked AS (
          UPDATE auth_sessions SET ${revokedAt(at)}
          WHERE platform_id = ${platformId} AND id = (SELECT id FROM target) AND EXISTS (SELECT 1 FROM consumed)
          RETURNING id
        ) SELECT CASE
          WHEN EXISTS (SELECT 1 FROM revoked) THEN 'revoked'
          WHEN EXISTS (SELECT 1 FROM request WHERE open) THEN 'sessionInactive'
          ELSE 'requestUsed' END AS outcome`
  })

  const revokeIssuedBy = SqlSchema.single({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId,
      at: Schema.DateTimeUtc
    }),
    Result: Count,
    execute: ({ platformId, authMethodId, at }) =>
      sql`WITH revoked AS (
          UPDATE auth_sessions SET ${revokedAt(at)}
          WHERE platform_id = ${platformId} AND auth_method_id = ${authMethodId}
            AND revoked_at IS NULL AND expires_at > ${at}::timestamptz
          RETURNING 1
        ) SELECT count(*)::int AS count FROM revoked`
  })

  return AuthSessionRepo.AuthSessionRepo.of({
    insert: (platformId, session) =>
      insert({ platformId, session }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authSessions.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authSessions.findById"))),
    listActive: (platformId, accountId, now) =>
      listActive({ platformId, accountId, now }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("authSessions.listActive"))
      ),
    listActiveBeside: (platformId, id, now) =>
      listActiveBeside({ platformId, id, now }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("authSessions.listActiveBeside"))
      ),
    revokeConsuming: (platformId, id, requestId, at) =>
      revokeConsuming({ platformId, id, requestId, at }).pipe(
        Effect.map((row) => row.outcome),
        Effect.mapError(Errors.StoreFailure.wrap("authSessions.revokeConsuming"))
      ),
    revoke: (platformId, id, at) =>
      revoke({ platformId, id, at }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("authSessions.revoke"))
      ),
    revokeIssuedBy: (platformId, authMethodId, at) =>
      revokeIssuedBy({ platformId, authMethodId, at }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("authSessions.revokeIssuedBy"))
      )
  })
})

/** Provides `AuthSessionRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AuthSessionRepo.AuthSessionRepo, never, SqlClient.SqlClient> = Layer.effect(
  AuthSessionRepo.AuthSessionRepo,
  make
)
