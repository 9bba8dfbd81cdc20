import { Duration, Effect, Layer, Option } from "effect"
import path from "node:path"
import {
  AuthenticationLimits,
  CredentialCache,
  DocumentLimits,
  BulkImportLimits,
  Domain,
  EndUserTerms,
  Errors,
  Ids,
  KycLinks,
  type Storage,
  WebhookSecrets
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import { baseUrl, type ServerConfig } from "./ServerConfig.js"
import * as WalletSetup from "./WalletSetup.js"
import type { WalletAuth } from "@payrail/wallet-auth"
import * as NodeWebhookSigner from "./webhooks/NodeWebhookSigner.js"
import * as NodeWebhookTransport from "./webhooks/NodeWebhookTransport.js"

/**
 * The storage adapter the configuration names; migrations run before the layer is ready. `owner` says what this
 * process is (`payrail serve`): the embedded store's data directory is locked in its name, so another process that
 * finds it in use can say who holds it.
 */
export const storage = (
  settings: ServerConfig,
  owner = "payrail"
): Layer.Layer<Storage.Services, Errors.StoreFailure> => {
  switch (settings.storage) {
    case "memory":
      return StorageMemory.layer
    case "pglite":
      return StoragePostgres.layerPglite({ dataDir: path.resolve(settings.dataDir, "pglite"), owner })
    case "postgres":
      return Option.match(settings.databaseUrl, {
        onNone: () => Layer.fail(Errors.StoreFailure.of("PAYRAIL_STORAGE=postgres needs DATABASE_URL")),
        onSome: (url) =>
          StoragePostgres.layerPostgres(url, {
            maxConnections: settings.databasePoolSize,
            // Only a server authenticates requests; a CLI command opens no listening connection.
            listenForCredentialChanges: owner === "payrail serve"
          })
      })
  }
}

/** Human-readable description of where data lives, for the start-up banner (never the connection string). */
export const describeStorage = (settings: ServerConfig): string => {
  switch (settings.storage) {
    case "memory":
      return "memory (data is lost on exit)"
    case "pglite":
      return `embedded PostgreSQL (PGlite) in ${path.resolve(settings.dataDir, "pglite")}`
    case "postgres":
      return "PostgreSQL (DATABASE_URL)"
  }
}

/**
 * The domain on the configured storage, with the sandbox providers (one-time codes over SMTP when configured), the
 * wallet keys (`WalletSetup`), secure ids, the configured rate limits of
 * authentication, and webhooks signed by `NodeWebhookSigner` and sent by `NodeWebhookTransport` with the configured secret
 * overlap. A failure to open the store is
 * logged with its full cause at DEBUG level only: the caller reports it to people in one line.
 */
export const make = (
  settings: ServerConfig,
  owner = "payrail"
): Layer.Layer<
  | Domain.Services
  | Storage.Services
  | WalletAuth.SignerPublicKey
  | DocumentLimits.DocumentLimits
  | BulkImportLimits.BulkImportLimits,
  Errors.StoreFailure
> =>
  Domain.layer.pipe(
    Layer.provideMerge(storage(settings, owner)),
    Layer.provide(WalletSetup.otpDelivery),
    Layer.provide(Sandbox.layer),
    Layer.provideMerge(WalletSetup.walletAuth(settings)),
    Layer.provide(Ids.layer),
    Layer.provide(NodeWebhookTransport.layer()),
    Layer.provide(NodeWebhookSigner.layer),
    Layer.provide(
      Layer.succeed(WebhookSecrets.WebhookSecretOverlap, Duration.seconds(settings.webhookSecretOverlapSeconds))
    ),
    // The hosted verification page's links start with the URL clients reach this server at.
    Layer.provide(Layer.succeed(KycLinks.PublicBaseUrl, baseUrl(settings))),
    Layer.provide(Layer.succeed(EndUserTerms.Current, settings.endUserTerms)),
    Layer.provide(Layer.succeed(CredentialCache.TimeToLive, Duration.seconds(settings.credentialCacheSeconds))),
    Layer.provide(
      Layer.succeed(AuthenticationLimits.AuthenticationLimits, AuthenticationLimits.make(settings.rateLimits))
    ),
    Layer.tapErrorCause((cause) => Effect.logDebug("could not open storage", cause)),
    // The document limit, for the use cases and for the HTTP layer's body bound of uploads.
    Layer.merge(Layer.succeed(DocumentLimits.DocumentLimits, { maxFileBytes: settings.documentMaxBytes })),
    // The bulk import limit, for the use case and for the HTTP layer's body bound of `POST /customers/bulk/csv`.
    Layer.merge(
      Layer.succeed(BulkImportLimits.BulkImportLimits, {
        maxFileBytes: settings.bulkImportMaxBytes,
        batchRows: BulkImportLimits.defaultBatchRows
      })
    )
  )
