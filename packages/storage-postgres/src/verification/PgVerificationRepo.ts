import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Errors, Page, Platform, Verification, VerificationRepo } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record } from "../internal/rows.js"

const Filter = Schema.Struct({
  customerId: Schema.optional(Schema.String),
  verificationStatus: Schema.optional(Schema.String)
})

const Listing = Schema.Struct({ platformId: Platform.PlatformId, filter: Filter, page: PageRequest })

const keyOf = (verification: Verification.Verification): Page.Cursor => ({
  createdAt: verification.createdAt,
  id: verification.id
})

/**
 * `VerificationRepo` on the `verifications` table (migration `0026_verifications`), every statement scoped by
 * `platform_id`. Guarantees: `insert` is one `INSERT` (a second insert of an id fails as `StoreFailure` and changes
 * nothing); `findById` is one `SELECT` by primary key; `list` is a keyset page, newest first by `(createdAt, id)`
 * with ids in byte order (`COLLATE "C"`), with the total matching count. Records are decoded with the core schema
 * on every read.
 */
export const make: Effect.Effect<
  Context.Tag.Service<VerificationRepo.VerificationRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, verification: Verification.Verification }),
    execute: ({ platformId, verification }) =>
      Effect.flatMap(
        jsonText(verification),
        (json) =>
          sql`INSERT INTO verifications ${sql.insert({
            id: verification.id,
            platform_id: platformId,
            customer_id: verification.customerId,
            verification_status: verification.verificationStatus,
            record: json,
            created_at: verification.createdAt
          })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: Verification.VerificationId }),
    Result: record(Verification.Verification),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM verifications WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const matching = ({ platformId, filter }: typeof Listing.Encoded): Array<Fragment> => {
    const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.verificationStatus !== undefined) {
      conditions.push(sql`verification_status = ${filter.verificationStatus}`)
    }
    return conditions
  }

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(Verification.Verification),
    execute: (request) => sql`SELECT record FROM verifications
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => sql`SELECT count(*)::int AS count FROM verifications WHERE ${sql.and(matching(request))}`
  })

  return VerificationRepo.VerificationRepo.of({
    insert: (platformId, verification) =>
      insert({ platformId, verification }).pipe(Effect.mapError(Errors.StoreFailure.wrap("verifications.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("verifications.findById"))),
    list: (platformId, filter, page) =>
      Effect.all([rows({ platformId, filter, page }), count({ platformId, filter, page })], {
        concurrency: "unbounded"
      }).pipe(
        Effect.map(([verifications, totalCount]) => Page.fromOverfetch(verifications, page, keyOf, totalCount)),
        Effect.mapError(Errors.StoreFailure.wrap("verifications.list"))
      )
  })
})

/** Provides `VerificationRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<VerificationRepo.VerificationRepo, never, SqlClient.SqlClient> = Layer.effect(
  VerificationRepo.VerificationRepo,
  make
)
