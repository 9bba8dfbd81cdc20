import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { AuthMethod, AuthMethodRepo, Errors, InternalAccount, Platform } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import * as WriteBehind from "../internal/writeBehind.js"
import { record, Returned } from "../internal/rows.js"

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: AuthMethod.AuthMethodId })

// The columns of a stored credential, from its encoded form: those its uniqueness rules are indexed on
// (migration `0023_wallet_auth`) and those it is listed by.
const columnsOf = (platformId: string, method: typeof AuthMethod.AuthMethod.Encoded) =>
  Effect.map(jsonText(method), (json) => ({
    id: method.id,
    platform_id: platformId,
    account_id: method.accountId,
    type: method.type,
    credential_id: method.credentialId ?? null,
    oauth_issuer: method.oauth?.issuer ?? null,
    oauth_audience: method.oauth?.audience ?? null,
    oauth_subject: method.oauth?.subject ?? null,
    record: json,
    created_at: method.createdAt
  }))

/**
 * `AuthMethodRepo` on the `auth_methods` table, every statement scoped by `platform_id`: another platform's
 * credentials are never found, listed or changed. Records are decoded with the core schema on every read; a row
 * that does not decode fails as `StoreFailure`.
 *
 * Guarantees:
 * - The uniqueness rules are unique partial indexes (migration `0023_wallet_auth`): `insert` and `insertAll` of a
 *   credential breaking one fail as `StoreFailure` (as does a second insert of an id) and change nothing;
 *   `insertAll` is one multi-row `INSERT`, all or nothing.
 * - `insertUnique` is one `INSERT … ON CONFLICT (<the index of its type's rule>) DO NOTHING`: of concurrent inserts
 *   of one credential exactly one is `inserted`. A reused id still fails as `StoreFailure`.
 * - `deleteUnlessLast` is one statement that locks the account's credential rows (`FOR UPDATE`) before it counts
 *   them and deletes: concurrent deletions of an account's credentials serialise on those locks, so they never
 *   leave it without one.
 * - `advancePasskeyCounter` and `rename` are single guarded `UPDATE`s of the record (`jsonb_set`), `advance…` only
 *   while the stored counter is still `from`, so of concurrent advances from one counter exactly one applies.
 * - `listByAccount` returns the account's credentials oldest first by `(createdAt, id)`, ids in byte order.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AuthMethodRepo.AuthMethodRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // One multi-row INSERT for any number of credentials.
  // Sent with the unit of work's other writes (`WriteBehind`).
  const insert = (operation: string) =>
    WriteBehind.encoded(sql, {
      Request: Schema.Struct({ platformId: Platform.PlatformId, methods: Schema.NonEmptyArray(AuthMethod.AuthMethod) }),
      operation,
      steps: ({ platformId, methods }) =>
        Effect.map(
          Effect.forEach(methods, (method) => columnsOf(platformId, method)),
          (rows) => WriteBehind.single("methods", sql`INSERT INTO auth_methods ${sql.insert(rows)}`)
        )
    })
  const insertOne = insert("authMethods.insert")
  const insertMany = insert("authMethods.insertAll")

  // The arbiter of each type's uniqueness rule: the columns and predicate of its unique partial index.
  const conflictTarget = (type: AuthMethod.AuthMethodType) => {
    switch (type) {
      case "PASSKEY":
        return sql`(platform_id, credential_id) WHERE type = 'PASSKEY'`
      case "OAUTH":
        return sql`(platform_id, account_id, oauth_issuer, oauth_audience, oauth_subject) WHERE type = 'OAUTH'`
      case "EMAIL_OTP":
      case "SMS_OTP":
        return sql`(platform_id, account_id, type) WHERE type IN ('EMAIL_OTP', 'SMS_OTP')`
    }
  }

  const insertUnique = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, method: AuthMethod.AuthMethod }),
    Result: Returned,
    execute: ({ platformId, method }) =>
      Effect.flatMap(
        columnsOf(platformId, method),
        (row) => sql`INSERT INTO auth_methods ${sql.insert(row)}
          ON CONFLICT ${conflictTarget(method.type)} DO NOTHING RETURNING id`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: record(AuthMethod.AuthMethod),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM auth_methods WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const listByAccount = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, accountId: InternalAccount.InternalAccountId }),
    Result: record(AuthMethod.AuthMethod),
    execute: ({ platformId, accountId }) =>
      sql`SELECT record FROM auth_methods WHERE platform_id = ${platformId} AND account_id = ${accountId}
          ORDER BY created_at, id COLLATE "C"`
  })

  // Locks every credential of the account, then deletes the one asked for only if more than one was locked. A
  // concurrent deletion that committed first is seen after the lock wait (its row is skipped), so the count is
  // of the credentials that remain.
  const deleteUnlessLast = SqlSchema.single({
    Request: Schema.Struct({ ...ById.fields, accountId: InternalAccount.InternalAccountId }),
    Result: Schema.Struct({ found: Schema.Boolean, deleted: Schema.Boolean }),
    execute: ({ platformId, accountId, id }) =>
      sql`WITH locked AS (
          SELECT id FROM auth_methods WHERE platform_id = ${platformId} AND account_id = ${accountId} FOR UPDATE
        ), deleted AS (
          DELETE FROM auth_methods
          WHERE platform_id = ${platformId} AND account_id = ${accountId} AND id = ${id}
            AND id IN (SELECT id FROM locked) AND (SELECT count(*) FROM locked) > 1
          RETURNING id
        ) SELECT EXISTS (SELECT 1 FROM locked WHERE id = ${id}) AS found,
          EXISTS (SELECT 1 FROM deleted) AS deleted`
  })

  const advancePasskeyCounter = SqlSchema.findOne({
    Request: Schema.Struct({
      ...ById.fields,
      from: Schema.Int,
      to: Schema.Int,
      at: Schema.DateTimeUtc
    }),
    Result: Returned,
    execute: ({ platformId, id, from, to, at }) =>
      sql`UPDATE auth_methods
        SET record = jsonb_set(jsonb_set(record, '{passkey,counter}', to_jsonb(${to}::bigint)),
          '{updatedAt}', to_jsonb(${at}::text))
        WHERE platform_id = ${platformId} AND id = ${id} AND type = 'PASSKEY'
          AND (record->'passkey'->>'counter')::bigint = ${from}::bigint
        RETURNING id`
  })

  const rename = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, nickname: Schema.String, at: Schema.DateTimeUtc }),
    Result: Returned,
    execute: ({ platformId, id, nickname, at }) =>
      sql`UPDATE auth_methods
        SET record = record || jsonb_build_object('nickname', ${nickname}::text, 'updatedAt', ${at}::text)
        WHERE platform_id = ${platformId} AND id = ${id}
        RETURNING id`
  })

  return AuthMethodRepo.AuthMethodRepo.of({
    insert: (platformId, method) => insertOne({ platformId, methods: [method] }),
    insertAll: (platformId, methods) =>
      Arr.isNonEmptyReadonlyArray(methods) ? insertMany({ platformId, methods }) : Effect.void,
    insertUnique: (platformId, method) =>
      insertUnique({ platformId, method }).pipe(
        Effect.map((row): AuthMethodRepo.InsertOutcome => (Option.isSome(row) ? "inserted" : "duplicate")),
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.insertUnique"))
      ),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authMethods.findById"))),
    listByAccount: (platformId, accountId) =>
      listByAccount({ platformId, accountId }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.listByAccount"))
      ),
    deleteUnlessLast: (platformId, accountId, id) =>
      deleteUnlessLast({ platformId, accountId, id }).pipe(
        Effect.map(({ deleted, found }): AuthMethodRepo.DeleteOutcome =>
          deleted ? "deleted" : found ? "last" : "missing"
        ),
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.deleteUnlessLast"))
      ),
    advancePasskeyCounter: (platformId, id, from, to, at) =>
      advancePasskeyCounter({ platformId, id, from, to, at }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.advancePasskeyCounter"))
      ),
    rename: (platformId, id, nickname, at) =>
      rename({ platformId, id, nickname, at }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.rename"))
      )
  })
})

/** Provides `AuthMethodRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AuthMethodRepo.AuthMethodRepo, never, SqlClient.SqlClient> = Layer.effect(
  AuthMethodRepo.AuthMethodRepo,
  make
)
