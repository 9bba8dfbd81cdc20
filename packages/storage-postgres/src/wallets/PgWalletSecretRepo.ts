import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, InternalAccount, Platform, WalletSecretRepo } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"

/**
 * `WalletSecretRepo` on the `wallet_secrets` table (migration `0023_wallet_auth`): one sealed secret per (platform,
 * wallet), stored as opaque text, every statement scoped by `platform_id`. `keep` is one `INSERT … ON CONFLICT DO
 * UPDATE … RETURNING` that leaves a stored secret unchanged and answers it: a concurrent first `keep` waits for the
 * other's row and answers the secret that row holds, so every caller gets the same one.
 */
export const make: Effect.Effect<
  Context.Tag.Service<WalletSecretRepo.WalletSecretRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const keep = SqlSchema.single({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      sealedSecret: Schema.String,
      at: Schema.DateTimeUtc
    }),
    Result: Schema.Struct({ sealed_secret: Schema.String }),
    execute: ({ platformId, accountId, sealedSecret, at }) =>
      sql`INSERT INTO wallet_secrets ${sql.insert({
        platform_id: platformId,
        account_id: accountId,
        sealed_secret: sealedSecret,
        created_at: at
      })} ON CONFLICT (platform_id, account_id) DO UPDATE SET sealed_secret = wallet_secrets.sealed_secret
        RETURNING sealed_secret`
  })

  return WalletSecretRepo.WalletSecretRepo.of({
    keep: (platformId, accountId, sealedSecret, at) =>
      keep({ platformId, accountId, sealedSecret, at }).pipe(
        Effect.map((row) => row.sealed_secret),
        Effect.mapError(Errors.StoreFailure.wrap("walletSecrets.keep"))
      )
  })
})

/** Provides `WalletSecretRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<WalletSecretRepo.WalletSecretRepo, never, SqlClient.SqlClient> = Layer.effect(
  WalletSecretRepo.WalletSecretRepo,
  make
)
