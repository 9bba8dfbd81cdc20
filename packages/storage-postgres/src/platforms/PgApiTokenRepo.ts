import * as SqlClient from "@effect/sql/SqlClient"
import { ApiToken, ApiTokenRepo, Errors } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText, timestampText } from "../internal/encoding.js"

const encodeToken = Schema.encode(ApiToken.ApiToken)
const decodeRows = Schema.decodeUnknown(Schema.Array(Schema.Struct({ record: ApiToken.ApiToken })))

/**
 * `ApiTokenRepo` on the `api_tokens` table. `clientId` is unique across platforms by a database constraint, so
 * of two concurrent inserts with one client id exactly one succeeds; the other, like inserting an existing id,
 * fails with `StoreFailure`. Tokens are decoded with the core schema on every read.
 */
export const make: Effect.Effect<Context.Tag.Service<ApiTokenRepo.ApiTokenRepo>, never, SqlClient.SqlClient> =
  Effect.map(SqlClient.SqlClient, (sql) =>
    ApiTokenRepo.ApiTokenRepo.of({
      insert: (token) =>
        Effect.gen(function* () {
          const record = yield* Effect.flatMap(encodeToken(token), jsonText)
          yield* sql`INSERT INTO api_tokens ${sql.insert({
            id: token.id,
            platform_id: token.platformId,
            client_id: token.clientId,
            record,
            created_at: timestampText(token.createdAt)
          })}`
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.insert"))),

      findByClientId: (clientId) =>
        sql`SELECT record FROM api_tokens WHERE client_id = ${clientId}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.fromNullable(rows[0]?.record)),
          Effect.mapError(Errors.StoreFailure.wrap("api_tokens.findByClientId"))
        ),

      listByPlatform: (platformId) =>
        sql`SELECT record FROM api_tokens WHERE platform_id = ${platformId} ORDER BY created_at, id`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map((row) => row.record)),
          Effect.mapError(Errors.StoreFailure.wrap("api_tokens.listByPlatform"))
        )
    })
  )

/** Provides `ApiTokenRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<ApiTokenRepo.ApiTokenRepo, never, SqlClient.SqlClient> = Layer.effect(
  ApiTokenRepo.ApiTokenRepo,
  make
)
