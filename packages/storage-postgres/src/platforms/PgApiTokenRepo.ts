import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { ApiToken, ApiTokenRepo, Errors, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { platformRecord } from "./PgPlatformRepo.js"
import { record } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const TokenWithPlatform = Schema.Struct({ token: ApiToken.ApiToken, platform: Platform.Platform })

/**
 * `ApiTokenRepo` on the `api_tokens` table. `clientId` is unique across platforms by a database constraint, so
 * of two concurrent inserts with one client id exactly one succeeds; the other, like inserting an existing id,
 * fails with `StoreFailure`. `findWithPlatform` is one statement joining `platforms`, so the token and its
 * platform are read as of one moment. A deletion is signalled to every listening server by a trigger when it
 * commits (migration 0011, `PgCredentialChanges`). A client id containing NUL is not found, without a statement. Tokens and
 * platforms are decoded with the core schemas on every read.
 */
export const make: Effect.Effect<
  Context.Tag.Service<ApiTokenRepo.ApiTokenRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: ApiToken.ApiToken,
    execute: (token) =>
      Effect.flatMap(
        jsonText(token),
        (json) =>
          sql`INSERT INTO api_tokens ${sql.insert({
            id: token.id,
            platform_id: token.platformId,
            client_id: token.clientId,
            record: json,
            created_at: token.createdAt
          })}`
      )
  })

  const findByClientId = SqlSchema.findOne({
    Request: Schema.String,
    Result: record(ApiToken.ApiToken),
    execute: (clientId) => sql`SELECT record FROM api_tokens WHERE client_id = ${clientId}`
  })

  // platforms.id is collated "C": the join compares in that collation, the one its primary key is built in,
  // whatever the database's default collation.
  const findWithPlatform = SqlSchema.findOne({
    Request: Schema.String,
    Result: TokenWithPlatform,
    execute: (clientId) => sql`SELECT t.record AS token, ${sql.literal(platformRecord("p"))} AS platform
        FROM api_tokens t JOIN platforms p ON p.id = t.platform_id COLLATE "C"
        WHERE t.client_id = ${clientId}`
  })

  const deleteByClientId = SqlSchema.findOne({
    Request: Schema.String,
    Result: record(ApiToken.ApiToken),
    execute: (clientId) => sql`DELETE FROM api_tokens WHERE client_id = ${clientId} RETURNING record`
  })

  const TokenKey = Schema.Struct({ platformId: Platform.PlatformId, id: ApiToken.ApiTokenId })

  const findById = SqlSchema.findOne({
    Request: TokenKey,
    Result: record(ApiToken.ApiToken),
    execute: ({ id, platformId }) => sql`SELECT record FROM api_tokens WHERE id = ${id} AND platform_id = ${platformId}`
  })

  const deleteById = SqlSchema.findOne({
    Request: TokenKey,
    Result: record(ApiToken.ApiToken),
    execute: ({ id, platformId }) =>
      sql`DELETE FROM api_tokens WHERE id = ${id} AND platform_id = ${platformId} RETURNING record`
  })

  const listByPlatform = SqlSchema.findAll({
    Request: Platform.PlatformId,
    Result: record(ApiToken.ApiToken),
    execute: (platformId) =>
      sql`SELECT record FROM api_tokens WHERE platform_id = ${platformId} ORDER BY created_at, id`
  })

  return ApiTokenRepo.ApiTokenRepo.of({
    insert: (token) => insert(token).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.insert"))),
    findByClientId: (clientId) =>
      storable(clientId)
        ? findByClientId(clientId).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.findByClientId")))
        : Effect.succeedNone,
    findWithPlatform: (clientId) =>
      storable(clientId)
        ? findWithPlatform(clientId).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.findWithPlatform")))
        : Effect.succeedNone,
    deleteByClientId: (clientId) =>
      storable(clientId)
        ? deleteByClientId(clientId).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.deleteByClientId")))
        : Effect.succeedNone,
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.findById"))),
    deleteById: (platformId, id) =>
      deleteById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.deleteById"))),
    listByPlatform: (platformId) =>
      listByPlatform(platformId).pipe(Effect.mapError(Errors.StoreFailure.wrap("api_tokens.listByPlatform")))
  })
})

/** Provides `ApiTokenRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<ApiTokenRepo.ApiTokenRepo, never, SqlClient.SqlClient> = Layer.effect(
  ApiTokenRepo.ApiTokenRepo,
  make
)
