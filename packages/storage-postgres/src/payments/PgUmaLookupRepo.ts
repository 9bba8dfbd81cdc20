import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Platform, UmaLookup, UmaLookupRepo } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record } from "../internal/rows.js"

/**
 * `UmaLookupRepo` on the `uma_lookups` table (migration `0020_uma_lookups`), every statement scoped by
 * `platform_id`. Guarantees: `insert` is one `INSERT` (a second insert of an id fails as `StoreFailure` and changes
 * nothing); `findById` is one `SELECT` by primary key; records are decoded with the core schema on every read;
 * `purgeExpired` is one statement deleting at most `limit` lookups that expired before `before` (earliest first, on
 * `uma_lookups_expiry_idx`),
 * across platforms, skipping rows locked by a running unit of work.
 */
export const make: Effect.Effect<
  Context.Tag.Service<UmaLookupRepo.UmaLookupRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, lookup: UmaLookup.UmaLookup }),
    execute: ({ platformId, lookup }) =>
      Effect.flatMap(
        jsonText(lookup),
        (json) =>
          sql`INSERT INTO uma_lookups ${sql.insert({
            id: lookup.id,
            platform_id: platformId,
            record: json,
            expires_at: lookup.expiresAt,
            created_at: lookup.createdAt
          })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: UmaLookup.LookupId }),
    Result: record(UmaLookup.UmaLookup),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM uma_lookups WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const purgeExpired = SqlSchema.single({
    Request: Schema.Struct({ before: Schema.DateTimeUtc, limit: Schema.Int }),
    Result: Count,
    execute: ({ before, limit }) =>
      sql`WITH expired AS (
          SELECT id FROM uma_lookups WHERE expires_at < ${before}::timestamptz
          ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ), purged AS (
          DELETE FROM uma_lookups WHERE id IN (SELECT id FROM expired) RETURNING 1
        ) SELECT count(*)::int AS count FROM purged`
  })

  return UmaLookupRepo.UmaLookupRepo.of({
    insert: (platformId, lookup) =>
      insert({ platformId, lookup }).pipe(Effect.mapError(Errors.StoreFailure.wrap("umaLookups.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("umaLookups.findById"))),
    purgeExpired: (before, limit) =>
      limit <= 0
        ? Effect.succeed(0)
        : purgeExpired({ before, limit }).pipe(Effect.mapError(Errors.StoreFailure.wrap("umaLookups.purgeExpired")))
  })
})

/** Provides `UmaLookupRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<UmaLookupRepo.UmaLookupRepo, never, SqlClient.SqlClient> = Layer.effect(
  UmaLookupRepo.UmaLookupRepo,
  make
)
