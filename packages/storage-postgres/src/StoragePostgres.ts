import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import { CredentialChanges, Errors, type Jobs, type Storage } from "@payrail/core"
import { Config, type ConfigError, Effect, Layer, type Redacted } from "effect"
import * as PgAuthMethodRepo from "./accounts/PgAuthMethodRepo.js"
import * as PgExternalAccountRepo from "./accounts/PgExternalAccountRepo.js"
import * as PgInternalAccountRepo from "./accounts/PgInternalAccountRepo.js"
import * as PgCustomerRepo from "./customers/PgCustomerRepo.js"
import * as PgJobs from "./events/PgJobs.js"
import * as PgWebhookDeliveryRepo from "./events/PgWebhookDeliveryRepo.js"
import * as PgWebhookSecretRepo from "./events/PgWebhookSecretRepo.js"
import * as PgIdempotencyKeys from "./kernel/PgIdempotencyKeys.js"
import * as PgOutbox from "./kernel/PgOutbox.js"
import * as PgRateLimiter from "./kernel/PgRateLimiter.js"
import * as PgUnitOfWork from "./kernel/PgUnitOfWork.js"
import * as PgLedger from "./ledger/PgLedger.js"
import * as PgQuoteRepo from "./payments/PgQuoteRepo.js"
import * as PgTransactionRepo from "./payments/PgTransactionRepo.js"
import * as PgUmaLookupRepo from "./payments/PgUmaLookupRepo.js"
import * as Migrations from "./Migrations.js"
import * as PgliteClient from "./PgliteClient.js"
import * as PgApiTokenRepo from "./platforms/PgApiTokenRepo.js"
import * as PgCredentialChanges from "./platforms/PgCredentialChanges.js"
import * as PgliteCredentialChanges from "./platforms/PgliteCredentialChanges.js"
import * as PgPlatformRepo from "./platforms/PgPlatformRepo.js"
import * as PgBeneficialOwnerRepo from "./verification/PgBeneficialOwnerRepo.js"
import * as PgDocumentRepo from "./verification/PgDocumentRepo.js"
import * as PgAuthSessionRepo from "./wallets/PgAuthSessionRepo.js"
import * as PgOtpChallengeRepo from "./wallets/PgOtpChallengeRepo.js"
import * as PgSignedRequestRepo from "./wallets/PgSignedRequestRepo.js"
import * as PgWalletSecretRepo from "./wallets/PgWalletSecretRepo.js"
import * as PgContactCodeRepo from "./verification/PgContactCodeRepo.js"
import * as PgDocumentStore from "./verification/PgDocumentStore.js"
import * as PgVerificationRepo from "./verification/PgVerificationRepo.js"
import * as PgKycLinkRepo from "./verification/PgKycLinkRepo.js"
import * as PgAgentRepo from "./agents/PgAgentRepo.js"
import * as PgAgentUsageRepo from "./agents/PgAgentUsageRepo.js"
import * as PgAgentActionRepo from "./agents/PgAgentActionRepo.js"
import * as PgCardRepo from "./cards/PgCardRepo.js"
import * as PgCardRevealRepo from "./cards/PgCardRevealRepo.js"
import * as PgCardTransactionRepo from "./cards/PgCardTransactionRepo.js"
import * as PgInvitationRepo from "./invitations/PgInvitationRepo.js"
import * as PgScaRepo from "./sca/PgScaRepo.js"
import * as PgStablecoinRepo from "./stablecoins/PgStablecoinRepo.js"
import * as PgIncomingDecisionRepo from "./payments/PgIncomingDecisionRepo.js"
import * as PgBulkImportRepo from "./customers/PgBulkImportRepo.js"
import * as PgDelegatedKeyRepo from "./wallets/PgDelegatedKeyRepo.js"

const openFailed = Errors.StoreFailure.wrap("opening and migrating the database")

type Repositories = Exclude<Storage.Services, CredentialChanges.CredentialChanges | Jobs.Jobs>

// Every storage port but `CredentialChanges` and `Jobs`, whose notifications depend on the kind of client, on a
// migrated schema.
const repositories: Layer.Layer<Repositories, Errors.StoreFailure, SqlClient.SqlClient> = Layer.mergeAll(
  PgUnitOfWork.layer,
  PgPlatformRepo.layer,
  PgApiTokenRepo.layer,
  PgCustomerRepo.layer,
  PgOutbox.layer,
  PgLedger.layer,
  PgInternalAccountRepo.layer,
  PgAuthMethodRepo.layer,
  PgExternalAccountRepo.layer,
  PgRateLimiter.layer,
  PgWebhookSecretRepo.layer,
  PgWebhookDeliveryRepo.layer,
  PgIdempotencyKeys.layer,
  PgQuoteRepo.layer,
  PgTransactionRepo.layer,
  PgUmaLookupRepo.layer,
  PgAuthSessionRepo.layer,
  PgSignedRequestRepo.layer,
  PgOtpChallengeRepo.layer,
  PgContactCodeRepo.layer,
  PgWalletSecretRepo.layer,
  PgWalletSecretRepo.layer,
  PgDocumentRepo.layer,
  PgBeneficialOwnerRepo.layer,
  PgDocumentStore.layer,
  PgVerificationRepo.layer,
  PgKycLinkRepo.layer,
  PgAgentRepo.layer,
  PgAgentUsageRepo.layer,
  PgAgentActionRepo.layer,
  PgCardRepo.layer,
  PgCardTransactionRepo.layer,
  PgCardRevealRepo.layer,
  PgInvitationRepo.layer,
  PgScaRepo.layer,
  PgStablecoinRepo.layer,
  PgIncomingDecisionRepo.layer,
  PgBulkImportRepo.layer,
  PgDelegatedKeyRepo.layer
).pipe(Layer.provide(Migrations.layer), Layer.mapError(openFailed))

/**
 * Every storage port on the ambient `SqlClient` (PostgreSQL dialect). The schema is migrated before any
 * repository exists, so a built layer always works on an up-to-date schema; migrating an up-to-date database
 * changes nothing. Failing to connect or migrate fails the layer with `StoreFailure`. A bare `SqlClient` cannot
 * listen for changes, so credentials are checked against the database on every request, and job workers are never
 * woken (they find new jobs at their idle timeout): with a `PgClient`, use `layerPgClient`.
 */
export const layer: Layer.Layer<Storage.Services, Errors.StoreFailure, SqlClient.SqlClient> = Layer.mergeAll(
  repositories,
  CredentialChanges.unobservable,
  PgJobs.layer
)

/**
 * Every storage port on the ambient `PgClient` of `@effect/sql-pg`, which also listens for changes to tokens and
 * platforms made by any process (`PgCredentialChanges`), so that verified credentials can be cached safely, and for
 * jobs enqueued by any process (`PgJobs.layerPgClient`), so that idle workers wake.
 */
export const layerPgClient: Layer.Layer<
  Storage.Services,
  Errors.StoreFailure,
  PgClient.PgClient | SqlClient.SqlClient
> = Layer.mergeAll(repositories, PgCredentialChanges.layer, PgJobs.layerPgClient)

// Every storage port on the ambient `PgClient` without a listening connection: credentials are never cached.
const layerPgClientUnobserved: Layer.Layer<
  Storage.Services,
  Errors.StoreFailure,
  PgClient.PgClient | SqlClient.SqlClient
> = Layer.mergeAll(repositories, CredentialChanges.unobservable, PgJobs.layer)

/**
 * Every storage port on the ambient PGlite client (`PgliteClient.layer`), which sees every change to tokens and
 * platforms as it commits (`PgliteCredentialChanges`), and every enqueued job (`PgJobs.layerPglite`).
 */
export const layerPgliteClient: Layer.Layer<
  Storage.Services,
  Errors.StoreFailure,
  PgliteClient.Notifications | SqlClient.SqlClient
> = Layer.mergeAll(repositories, PgliteCredentialChanges.layer, PgJobs.layerPglite)

/** How `layerPostgres` connects. */
export interface PostgresOptions {
  /**
   * The most pooled connections this process opens (default 10, `pg`'s own). Each Node process is one thread, so
   * more connections than about twice the requests it can have waiting on the database buy nothing; several
   * processes on one database each open their own pool (keep the sum under the server's `max_connections`). One
   * more connection listens for credential changes.
   */
  readonly maxConnections?: number
  /**
   * Whether to listen for changes to tokens and platforms and for new jobs (default true), so that authentication
   * may cache credentials and idle job workers wake. A short-lived process that authenticates nobody and runs no
   * worker (a CLI command) passes false and opens no listening connection.
   */
  readonly listenForCredentialChanges?: boolean
}

/**
 * Every storage port on the PostgreSQL server at `url` (a `postgres://` connection string), through a pool of
 * `@effect/sql-pg` that is closed when the layer is released. The URL stays redacted: it never reaches logs.
 */
export const layerPostgres = (
  url: Redacted.Redacted<string>,
  options: PostgresOptions = {}
): Layer.Layer<Storage.Services, Errors.StoreFailure> =>
  (options.listenForCredentialChanges === false ? layerPgClientUnobserved : layerPgClient).pipe(
    Layer.provide(
      PgClient.layer({
        url,
        applicationName: "payrail",
        ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections })
      }).pipe(Layer.mapError(openFailed))
    )
  )

/**
 * Every storage port on PGlite, PostgreSQL running in this process: in memory, or in `options.dataDir` where the
 * data survives restarts. The same migrations and statements run as on a PostgreSQL server; units of work run
 * one at a time (see `PgliteClient`). The database is closed when the layer is released.
 */
export const layerPglite = (options: PgliteClient.Options = {}): Layer.Layer<Storage.Services, Errors.StoreFailure> =>
  layerPgliteClient.pipe(Layer.provide(PgliteClient.layer(options).pipe(Layer.mapError(openFailed))))

/** `layerPostgres` on the server named by the `DATABASE_URL` configuration, which is required. */
export const layerConfig: Layer.Layer<Storage.Services, Errors.StoreFailure | ConfigError.ConfigError> =
  Layer.unwrapEffect(Effect.map(Config.redacted("DATABASE_URL"), layerPostgres))
