import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { AuthMethod, AuthMethodRepo, Errors, InternalAccount, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record } from "../internal/rows.js"

/**
 * `AuthMethodRepo` on the `auth_methods` table, every statement scoped by `platform_id`: another platform's
 * credentials are never listed. An id is inserted once (a second insert fails as `StoreFailure`). `listByAccount`
 * returns the account's credentials oldest first by `(createdAt, id)`, ids in byte order. Records are decoded with
 * the core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AuthMethodRepo.AuthMethodRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, method: AuthMethod.AuthMethod }),
    execute: ({ platformId, method }) =>
      Effect.flatMap(
        jsonText(method),
        (json) =>
          sql`INSERT INTO auth_methods ${sql.insert({
            id: method.id,
            platform_id: platformId,
            account_id: method.accountId,
            type: method.type,
            record: json,
            created_at: method.createdAt
          })}`
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
      insert({ platformId, method }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authMethods.insert"))),
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
