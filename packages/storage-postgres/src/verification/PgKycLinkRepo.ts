import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Customer, Errors, type KycLink, KycLinkRepo, Platform } from "@payrail/core"
import { type Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { Returned } from "../internal/rows.js"

const Row = Schema.Struct({
  secretHash: Schema.String,
  platformId: Platform.PlatformId,
  customerId: Customer.CustomerId,
  redirectUri: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtcFromDate,
  expiresAt: Schema.DateTimeUtcFromDate,
  spentAt: Schema.NullOr(Schema.DateTimeUtcFromDate)
})

const toLink = (row: typeof Row.Type): KycLink.StoredKycLink => ({
  secretHash: row.secretHash,
  platformId: row.platformId,
  customerId: row.customerId,
  redirectUri: row.redirectUri ?? undefined,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  spentAt: row.spentAt ?? undefined
})

/**
 * `KycLinkRepo` on the `kyc_links` table (migration `0028_kyc_links`), keyed by the secret's hash.
 *
 * Guarantees: `spend` is one guarded `UPDATE … WHERE spent_at IS NULL AND expires_at > at`: of concurrent spends
 * exactly one gets `true`, and it joins the ambient transaction.
 */
export const make: Effect.Effect<Context.Tag.Service<KycLinkRepo.KycLinkRepo>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const find = SqlSchema.findOne({
      Request: Schema.String,
      Result: Row,
      execute: (secretHash) =>
        sql`SELECT secret_hash AS "secretHash", platform_id AS "platformId", customer_id AS "customerId",
            redirect_uri AS "redirectUri", created_at AS "createdAt", expires_at AS "expiresAt", spent_at AS "spentAt"
          FROM kyc_links WHERE secret_hash = ${secretHash}`
    })

    const spend = SqlSchema.findOne({
      Request: Schema.Struct({ secretHash: Schema.String, at: Schema.DateTimeUtc }),
      Result: Returned,
      execute: ({ at, secretHash }) =>
        sql`UPDATE kyc_links SET spent_at = ${at}::timestamptz
          WHERE secret_hash = ${secretHash} AND spent_at IS NULL AND expires_at > ${at}::timestamptz
          RETURNING secret_hash AS id`
    })

    return KycLinkRepo.KycLinkRepo.of({
      insert: (link) =>
        sql`INSERT INTO kyc_links ${sql.insert({
          secret_hash: link.secretHash,
          platform_id: link.platformId,
          customer_id: link.customerId,
          redirect_uri: link.redirectUri ?? null,
          created_at: DateTime.formatIso(link.createdAt),
          expires_at: DateTime.formatIso(link.expiresAt),
          spent_at: null
        })}`.pipe(Effect.asVoid, Effect.mapError(Errors.StoreFailure.wrap("kycLinks.insert"))),
      findBySecretHash: (secretHash) =>
        find(secretHash).pipe(
          Effect.map(Option.map(toLink)),
          Effect.mapError(Errors.StoreFailure.wrap("kycLinks.findBySecretHash"))
        ),
      spend: (secretHash, at) =>
        spend({ secretHash, at }).pipe(
          Effect.map(Option.isSome),
          Effect.mapError(Errors.StoreFailure.wrap("kycLinks.spend"))
        )
    })
  }
)

/** Provides `KycLinkRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<KycLinkRepo.KycLinkRepo, never, SqlClient.SqlClient> = Layer.effect(
  KycLinkRepo.KycLinkRepo,
  make
)
