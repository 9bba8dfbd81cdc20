import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { AuthMethod, AuthMethodRepo, Errors, InternalAccount, Platform } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record } from "../internal/rows.js"

/**
 * `AuthMethodRepo` on the `auth_methods` table, every statement scoped by `platform_id`: another platform's
 * credentials are never listed. An id is inserted once (a second insert fails as `StoreFailure`); `insertAll` is one
 * multi-row `INSERT`, all or nothing. `listByAccount`
 * returns the account's credentials oldest first by `(createdAt, id)`, ids in byte order. Records are decoded with
 * the core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AuthMethodRepo.AuthMethodRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // One multi-row INSERT for any number of credentials.
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, methods: Schema.NonEmptyArray(AuthMethod.AuthMethod) }),
    execute: ({ platformId, methods }) =>
      Effect.flatMap(
        Effect.forEach(methods, (method) =>
          Effect.map(jsonText(method), (json) => ({
            id: method.id,
            platform_id: platformId,
            account_id: method.accountId,
            type: method.type,
            record: json,
            created_at: method.createdAt
          }))
        ),
        (rows) => sql`INSERT INTO auth_methods ${sql.insert(rows)}`
      )
  })

  const listByAccount = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, accountId: InternalAccount.InternalAccountId }),
    Result: record(AuthMethod.AuthMethod),
    execute: ({ platformId, accountId }) =>
      sql`SELECT record FROM auth_methods WHERE platform_id = ${platformId} AND account_id = ${accountId}
          ORDER BY created_at, id COLLATE "C"`
  })

  return AuthMethodRepo.AuthMethodRepo.of({
    insert: (platformId, method) =>
      insert({ platformId, methods: [method] }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authMethods.insert"))),
    insertAll: (platformId, methods) =>
      Arr.isNonEmptyReadonlyArray(methods)
        ? insert({ platformId, methods }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authMethods.insertAll")))
        : Effect.void,
    listByAccount: (platformId, accountId) =>
      listByAccount({ platformId, accountId }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("authMethods.listByAccount"))
      )
  })
})

/** Provides `AuthMethodRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AuthMethodRepo.AuthMethodRepo, never, SqlClient.SqlClient> = Layer.effect(
  AuthMethodRepo.AuthMethodRepo,
  make
)
