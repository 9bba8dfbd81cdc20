import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Platform, PlatformRepo } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { record } from "../internal/rows.js"

/**
 * The platform record of the row `alias` (a table alias, or none) as the core schema reads it: the stored record with
 * the clock offset of its own column (migration 0018), which no record write can overwrite.
 */
export const platformRecord = (alias?: string): string => {
  const column = (name: string) => (alias === undefined ? name : `${alias}.${name}`)
  return `${column("record")} || jsonb_build_object('clockOffsetSeconds', ${column("clock_offset_seconds")})`
}

/**
 * `PlatformRepo` on the `platforms` table. A platform is stored in its encoded form and decoded with the core
 * schema on every read, so a row that no longer matches the schema fails as a `StoreFailure` instead of leaking
 * a malformed record. Inserting an id that exists fails with `StoreFailure`. `updateConfig` and `advanceClock` are each one guarded
 * `UPDATE`; the `platforms_changed` trigger (migration 0011) signals it to every listening server when it commits.
 */
export const make: Effect.Effect<
  Context.Tag.Service<PlatformRepo.PlatformRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Platform.Platform,
    execute: (platform) =>
      Effect.flatMap(
        jsonText(platform),
        (json) =>
          sql`INSERT INTO platforms ${sql.insert({
            id: platform.id,
            record: json,
            clock_offset_seconds: platform.clockOffsetSeconds,
            created_at: platform.createdAt
          })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: Platform.PlatformId,
    Result: record(Platform.Platform),
    execute: (id) => sql`SELECT ${sql.literal(platformRecord())} AS record FROM platforms WHERE id = ${id}`
  })

  const list = SqlSchema.findAll({
    Request: Schema.Void,
    Result: record(Platform.Platform),
    execute: () => sql`SELECT ${sql.literal(platformRecord())} AS record FROM platforms ORDER BY created_at, id`
  })

  // The guard compares the stored record's `updatedAt` as text: both sides are the schema's ISO encoding.
  const updateConfig = SqlSchema.findAll({
    Request: Schema.Struct({ next: Platform.Platform, previousUpdatedAt: Schema.DateTimeUtc }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ next, previousUpdatedAt }) =>
      Effect.flatMap(
        jsonText(next),
        (json) => sql`UPDATE platforms SET record = ${json}::jsonb - 'clockOffsetSeconds'
          WHERE id = ${next.id} AND record->>'updatedAt' = ${previousUpdatedAt}
          RETURNING id`
      )
  })

  // One UPDATE: the increment and the limit are checked on the row itself, so concurrent advances add up.
  const advanceClock = SqlSchema.findOne({
    Request: Schema.Struct({ id: Platform.PlatformId, bySeconds: Schema.Int, maxOffsetSeconds: Schema.Int }),
    Result: record(Platform.Platform),
    execute: ({ bySeconds, id, maxOffsetSeconds }) => sql`UPDATE platforms
        SET clock_offset_seconds = clock_offset_seconds + ${bySeconds}
        WHERE id = ${id} AND clock_offset_seconds + ${bySeconds} <= ${maxOffsetSeconds}
        RETURNING ${sql.literal(platformRecord())} AS record`
  })

  return PlatformRepo.PlatformRepo.of({
    insert: (platform) => insert(platform).pipe(Effect.mapError(Errors.StoreFailure.wrap("platforms.insert"))),
    findById: (id) => findById(id).pipe(Effect.mapError(Errors.StoreFailure.wrap("platforms.findById"))),
    list: list(undefined).pipe(Effect.mapError(Errors.StoreFailure.wrap("platforms.list"))),
    updateConfig: (next, previousUpdatedAt) =>
      updateConfig({ next, previousUpdatedAt }).pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.mapError(Errors.StoreFailure.wrap("platforms.updateConfig"))
      ),
    advanceClock: (id, bySeconds, maxOffsetSeconds) =>
      advanceClock({ id, bySeconds, maxOffsetSeconds }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("platforms.advanceClock"))
      )
  })
})

/** Provides `PlatformRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<PlatformRepo.PlatformRepo, never, SqlClient.SqlClient> = Layer.effect(
  PlatformRepo.PlatformRepo,
  make
)
