import * as SqlClient from "@effect/sql/SqlClient"
import { AuthMethod, AuthMethodRepo, Errors } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText, timestampText } from "../internal/encoding.js"

const encodeMethod = Schema.encode(AuthMethod.AuthMethod)
const decodeRecords = Schema.decodeUnknown(Schema.Array(Schema.Struct({ record: AuthMethod.AuthMethod })))

/**
 * `AuthMethodRepo` on the `auth_methods` table, every statement scoped by `platform_id`: another platform's
 * credentials are never listed. An id is inserted once (a second insert fails as `StoreFailure`). `listByAccount`
 * returns the account's credentials oldest first by `(createdAt, id)`, ids in byte order. Records are decoded with
 * the core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<Context.Tag.Service<AuthMethodRepo.AuthMethodRepo>, never, SqlClient.SqlClient> =
  Effect.map(SqlClient.SqlClient, (sql) =>
    AuthMethodRepo.AuthMethodRepo.of({
      insert: (platformId, method) =>
        Effect.gen(function* () {
          const record = yield* Effect.flatMap(encodeMethod(method), jsonText)
          yield* sql`INSERT INTO auth_methods ${sql.insert({
            id: method.id,
            platform_id: platformId,
            account_id: method.accountId,
            type: method.type,
            record,
            created_at: timestampText(method.createdAt)
          })}`
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("authMethods.insert"))),

      listByAccount: (platformId, accountId) =>
        sql`SELECT record FROM auth_methods WHERE platform_id = ${platformId} AND account_id = ${accountId}
          ORDER BY created_at, id COLLATE "C"`.pipe(
          Effect.flatMap(decodeRecords),
          Effect.map((rows) => rows.map((row) => row.record)),
          Effect.mapError(Errors.StoreFailure.wrap("authMethods.listByAccount"))
        )
    })
  )

/** Provides `AuthMethodRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AuthMethodRepo.AuthMethodRepo, never, SqlClient.SqlClient> = Layer.effect(
  AuthMethodRepo.AuthMethodRepo,
  make
)
