import * as SqlClient from "@effect/sql/SqlClient"
import { Errors, Platform, PlatformRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText, timestampText } from "../internal/encoding.js"

const encodePlatform = Schema.encode(Platform.Platform)
const decodeRows = Schema.decodeUnknown(Schema.Array(Schema.Struct({ record: Platform.Platform })))

/**
 * `PlatformRepo` on the `platforms` table. A platform is stored in its encoded form and decoded with the core
 * schema on every read, so a row that no longer matches the schema fails as a `StoreFailure` instead of leaking
 * a malformed record. Inserting an id that exists fails with `StoreFailure`.
 */
export const make: Effect.Effect<Context.Tag.Service<PlatformRepo.PlatformRepo>, never, SqlClient.SqlClient> =
  Effect.map(SqlClient.SqlClient, (sql) =>
    PlatformRepo.PlatformRepo.of({
      insert: (platform) =>
        Effect.gen(function* () {
          const record = yield* Effect.flatMap(encodePlatform(platform), jsonText)
          yield* sql`INSERT INTO platforms ${sql.insert({
            id: platform.id,
            record,
            created_at: timestampText(platform.createdAt)
          })}`
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("platforms.insert"))),

      findById: (id) =>
        sql`SELECT record FROM platforms WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.fromNullable(rows[0]?.record)),
          Effect.mapError(Errors.StoreFailure.wrap("platforms.findById"))
        ),

      list: sql`SELECT record FROM platforms ORDER BY created_at, id`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map((row) => row.record)),
        Effect.mapError(Errors.StoreFailure.wrap("platforms.list"))
      )
    })
  )

/** Provides `PlatformRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<PlatformRepo.PlatformRepo, never, SqlClient.SqlClient> = Layer.effect(
  PlatformRepo.PlatformRepo,
  make
)
