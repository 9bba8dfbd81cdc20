import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import {
  BeneficialOwner,
  BeneficialOwnerRepo,
  Customer,
  Errors,
  Page,
  Platform,
  VerificationStatus
} from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"

/** A `BeneficialOwnerRepo.StoredBeneficialOwner` as a request. */
const Stored = Schema.Struct({
  owner: BeneficialOwner.BeneficialOwner,
  identifier: Schema.String,
  version: Schema.Int
})

/** The row of `SELECT record, identifier, version`, its record decoded by the core schema. */
const StoredRow = Schema.Struct({
  record: BeneficialOwner.BeneficialOwner,
  identifier: Schema.String,
  version: Schema.Int
}).pipe(Schema.rename({ record: "owner" }))

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: BeneficialOwner.BeneficialOwnerId })
const OfCustomer = Schema.Struct({ platformId: Platform.PlatformId, customerId: Customer.CustomerId })
const Listing = Schema.Struct({ ...OfCustomer.fields, page: PageRequest })

const keyOf = (owner: BeneficialOwner.BeneficialOwner): Page.Cursor => ({ createdAt: owner.createdAt, id: owner.id })

/**
 * `BeneficialOwnerRepo` on the `beneficial_owners` table (migration `0024_verification_records`), every statement
 * scoped by `platform_id`. Records are decoded with the core schema on every read; a row that does not decode fails
 * as `StoreFailure`. The tax identifier lives in its own column, never in `record`.
 *
 * Guarantees:
 * - `insert` is one `INSERT` at version 1; a second insert of an id fails as `StoreFailure` and changes nothing.
 * - `update` is one `UPDATE` guarded by `version = expectedVersion`: of concurrent updates from one version exactly
 *   one applies.
 * - `resolveKycStatus` is one `UPDATE` guarded by the stored status not being `APPROVED` or `REJECTED`, which bumps
 *   the version: a final status never changes, and an `update` read before the resolution no longer applies.
 * - `list` is a keyset page newest first by `(created_at, id)` (ids in byte order) with its count; `listAll` reads
 *   oldest first.
 */
export const make: Effect.Effect<
  Context.Tag.Service<BeneficialOwnerRepo.BeneficialOwnerRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // The columns of a stored owner, from its encoded form.
  const columns = (stored: typeof Stored.Encoded) =>
    Effect.map(jsonText(stored.owner), (json) => ({
      customer_id: stored.owner.customerId,
      record: json,
      identifier: stored.identifier,
      created_at: stored.owner.createdAt
    }))

  const insert = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, stored: Stored }),
    execute: ({ platformId, stored }) =>
      Effect.flatMap(
        columns(stored),
        (values) =>
          sql`INSERT INTO beneficial_owners ${sql.insert({ id: stored.owner.id, platform_id: platformId, ...values, version: 1 })}`
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: StoredRow,
    execute: ({ platformId, id }) =>
      sql`SELECT record, identifier, version FROM beneficial_owners WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(BeneficialOwner.BeneficialOwner),
    execute: (request) => sql`SELECT record FROM beneficial_owners
        WHERE ${sql.and([
          sql`platform_id = ${request.platformId}`,
          sql`customer_id = ${request.customerId}`,
          ...afterCursor(sql, request.page)
        ])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: OfCustomer,
    Result: Count,
    execute: ({ platformId, customerId }) => sql`SELECT count(*)::int AS count FROM beneficial_owners
        WHERE platform_id = ${platformId} AND customer_id = ${customerId}`
  })

  const listAll = SqlSchema.findAll({
    Request: OfCustomer,
    Result: StoredRow,
    execute: ({ platformId, customerId }) => sql`SELECT record, identifier, version FROM beneficial_owners
        WHERE platform_id = ${platformId} AND customer_id = ${customerId}
        ORDER BY created_at, id COLLATE "C"`
  })

  const update = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, next: Stored, expectedVersion: Schema.Int }),
    Result: Returned,
    execute: ({ platformId, next, expectedVersion }) =>
      Effect.flatMap(
        columns(next),
        (values) => sql`UPDATE beneficial_owners SET ${sql.update({ ...values, version: expectedVersion + 1 })}
            WHERE platform_id = ${platformId} AND id = ${next.owner.id} AND version = ${expectedVersion}
            RETURNING id`
      )
  })

  const resolveKycStatus = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, status: VerificationStatus.KycStatus, updatedAt: Schema.DateTimeUtc }),
    Result: Returned,
    execute: ({ platformId, id, status, updatedAt }) =>
      sql`UPDATE beneficial_owners
        SET record = record || jsonb_build_object('kycStatus', ${status}::text, 'updatedAt', ${updatedAt}::text),
          version = version + 1
        WHERE platform_id = ${platformId} AND id = ${id} AND record->>'kycStatus' NOT IN ('APPROVED', 'REJECTED')
        RETURNING id`
  })

  return BeneficialOwnerRepo.BeneficialOwnerRepo.of({
    insert: (platformId, stored) =>
      insert({ platformId, stored }).pipe(Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.insert"))),
    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.findById"))),
    list: (platformId, customerId, page) =>
      Effect.all([rows({ platformId, customerId, page }), count({ platformId, customerId })], {
        concurrency: "unbounded"
      }).pipe(
        Effect.map(([owners, totalCount]) => Page.fromOverfetch(owners, page, keyOf, totalCount)),
        Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.list"))
      ),
    listAll: (platformId, customerId) =>
      listAll({ platformId, customerId }).pipe(Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.listAll"))),
    update: (platformId, next, expectedVersion) =>
      update({ platformId, next, expectedVersion }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.update"))
      ),
    resolveKycStatus: (platformId, id, status, updatedAt) =>
      resolveKycStatus({ platformId, id, status, updatedAt }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("beneficialOwners.resolveKycStatus"))
      )
  })
})

/** Provides `BeneficialOwnerRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<BeneficialOwnerRepo.BeneficialOwnerRepo, never, SqlClient.SqlClient> = Layer.effect(
  BeneficialOwnerRepo.BeneficialOwnerRepo,
  make
)
