import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Platform, WebhookSecret, WebhookSecretRepo } from "@payrail/core"
import { type Context, Effect, Layer, Redacted, Schema } from "effect"

/** A row of `webhook_secrets` as both drivers read it (timestamps as `Date`s), decoded to the secret. */
const SecretRow = Schema.transform(
  Schema.Struct({
    platform_id: Platform.PlatformId,
    secret: Schema.String,
    created_at: Schema.DateTimeUtcFromDate,
    expires_at: Schema.NullOr(Schema.DateTimeUtcFromDate)
  }),
  Schema.typeSchema(WebhookSecret.WebhookSecret),
  {
    strict: false,
    decode: (row) =>
      WebhookSecret.WebhookSecret.make({
        platformId: row.platform_id,
        secret: Redacted.make(row.secret),
        createdAt: row.created_at,
        ...(row.expires_at === null ? {} : { expiresAt: row.expires_at })
      }),
    encode: (secret) => ({
      platform_id: secret.platformId,
      secret: Redacted.value(secret.secret),
      created_at: secret.createdAt,
      expires_at: secret.expiresAt ?? null
    })
  }
)

/**
 * `WebhookSecretRepo` on `webhook_secrets`. `rotate` is one statement (data-modifying CTEs): it removes expired
 * secrets, shortens the others' lives to the overlap and inserts the new one, all or nothing.
 */
export const make: Effect.Effect<
  Context.Tag.Service<WebhookSecretRepo.WebhookSecretRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const rotate = SqlSchema.void({
    Request: Schema.Struct({ next: WebhookSecret.WebhookSecret, previousExpiresAt: Schema.DateTimeUtc }),
    execute: ({ next, previousExpiresAt }) => sql`WITH expired AS (
          DELETE FROM webhook_secrets
          WHERE platform_id = ${next.platformId} AND expires_at <= ${next.createdAt}::timestamptz
        ), shortened AS (
          UPDATE webhook_secrets SET expires_at = ${previousExpiresAt}::timestamptz
          WHERE platform_id = ${next.platformId}
            AND (expires_at IS NULL OR expires_at > ${previousExpiresAt}::timestamptz)
        )
        INSERT INTO webhook_secrets (platform_id, secret, created_at)
        VALUES (${next.platformId}, ${next.secret}, ${next.createdAt}::timestamptz)`
  })

  const active = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, now: Schema.DateTimeUtc }),
    Result: SecretRow,
    execute: ({ now, platformId }) => sql`SELECT platform_id, secret, created_at, expires_at FROM webhook_secrets
        WHERE platform_id = ${platformId} AND (expires_at IS NULL OR expires_at > ${now}::timestamptz)
        ORDER BY seq DESC`
  })

  return WebhookSecretRepo.WebhookSecretRepo.of({
    rotate: (next, previousExpiresAt) =>
      rotate({ next, previousExpiresAt }).pipe(Effect.mapError(Errors.StoreFailure.wrap("webhook_secrets.rotate"))),
    active: (platformId, now) =>
      active({ platformId, now }).pipe(Effect.mapError(Errors.StoreFailure.wrap("webhook_secrets.active")))
  })
})

/** Provides `WebhookSecretRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<WebhookSecretRepo.WebhookSecretRepo, never, SqlClient.SqlClient> = Layer.effect(
  WebhookSecretRepo.WebhookSecretRepo,
  make
)
