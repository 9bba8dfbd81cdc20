import { Config, ConfigError, Either, LogLevel, Option, type Redacted } from "effect"
import { SourceAddress } from "@payrail/http"
import { BulkImportLimits, DocumentLimits, EndUserTerms } from "@payrail/core"

/** Where the server keeps its data. */
export type StorageKind = "postgres" | "pglite" | "memory"

/** The reference server's configuration, read from the environment (see docs/operating/configuration.md). */
export interface ServerConfig {
  readonly host: string
  readonly port: number
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** The most pooled PostgreSQL connections of this process. */
  readonly databasePoolSize: number
  readonly storage: StorageKind
  readonly dataDir: string
  readonly bootstrap: boolean
  readonly publicUrl: Option.Option<string>
  /** The End User Terms `GET /customers/end-user-terms` answers (`PAYRAIL_END_USER_TERMS_VERSION`, `_URL`). */
  readonly endUserTerms: EndUserTerms.EndUserTermsView
  readonly logLevel: LogLevel.LogLevel
  readonly logFormat: "pretty" | "logfmt" | "json"
  readonly shutdownTimeoutSeconds: number
  /** How long a client may take to send a request's headers (`PAYRAIL_HEADERS_TIMEOUT_SECONDS`). */
  readonly headersTimeoutSeconds: number
  /** How long a client may take to send a whole request, body included (`PAYRAIL_REQUEST_TIMEOUT_SECONDS`). */
  readonly requestTimeoutSeconds: number
  /** How long an idle keep-alive connection stays open (`PAYRAIL_KEEP_ALIVE_TIMEOUT_SECONDS`). */
  readonly keepAliveTimeoutSeconds: number
  /** Whether use cases and statements record spans; off unless a tracer is configured (`PAYRAIL_TRACING`). */
  readonly tracing: boolean
  /** How long verified API credentials are trusted without a storage lookup (0: never cached). */
  readonly credentialCacheSeconds: number
  /** The rate limits of authentication and of requests per API token (0 turns a limit off). */
  readonly rateLimits: RateLimitSettings
  /** Proxies whose `X-Forwarded-For` names the source address (`PAYRAIL_TRUSTED_PROXIES`); none by default. */
  readonly trustedProxies: ReadonlyArray<string>
  /** The most job handlers running at once in this process (`PAYRAIL_JOB_CONCURRENCY`). */
  readonly jobConcurrency: number
  /** How long a claimed job is held before another instance may run it (`PAYRAIL_JOB_LEASE_SECONDS`). */
  readonly jobLeaseSeconds: number
  /** How long a rotated-out webhook signing secret keeps signing beside the new one. */
  readonly webhookSecretOverlapSeconds: number
  /** The largest document file accepted, in bytes (`PAYRAIL_DOCUMENT_MAX_BYTES`, default 10 MiB). */
  readonly documentMaxBytes: number
  /** The largest bulk customer import file, in bytes (`PAYRAIL_BULK_IMPORT_MAX_BYTES`, default 64 MiB). */
  readonly bulkImportMaxBytes: number
}

/** The rate-limit figures (`PAYRAIL_AUTH_FAILURES_*`, `PAYRAIL_TOKEN_REQUEST*`). */
export interface RateLimitSettings {
  readonly failuresPerClientId: number
  readonly failuresPerSourceAddress: number
  readonly failureWindowSeconds: number
  readonly requestsPerSecond: number
  readonly requestBurst: number
}

// `warning` and `none` are the names the configuration table documented before `Config.logLevel` was used.
const aliases: Record<string, LogLevel.LogLevel> = { warning: LogLevel.Warning, none: LogLevel.None }

/**
 * A log level by name, in any case: Effect's labels (`all`, `trace`, `debug`, `info`, `warn`, `error`, `fatal`,
 * `off`) through `Config.logLevel`, or the aliases `warning` and `none`.
 */
const logLevel = (name: string): Config.Config<LogLevel.LogLevel> =>
  Config.logLevel(name).pipe(
    Config.orElse(() =>
      Config.string(name).pipe(
        Config.mapOrFail((value) => {
          const alias = aliases[value.toLowerCase()]
          return alias === undefined
            ? Either.left(ConfigError.InvalidData([], "use all, trace, debug, info, warn, error, fatal or off"))
            : Either.right(alias)
        })
      )
    )
  )

/** A whole number of seconds from 1 to 3600 in `name`, else `fallback`. */
const seconds = (name: string, fallback: number): Config.Config<number> =>
  Config.integer(name).pipe(
    Config.validate({ message: "must be between 1 and 3600", validation: (value) => value >= 1 && value <= 3600 }),
    Config.withDefault(fallback)
  )

/** A whole number from 0 to `max` in `name`, else `fallback`; 0 turns the limit it sets off. */
const figure = (name: string, fallback: number, max: number): Config.Config<number> =>
  Config.integer(name).pipe(
    Config.validate({
      message: `must be between 0 and ${max}`,
      validation: (value) => value >= 0 && value <= max
    }),
    Config.withDefault(fallback)
  )

const rateLimits: Config.Config<RateLimitSettings> = Config.all({
  failuresPerClientId: figure("PAYRAIL_AUTH_FAILURES_PER_CLIENT_ID", 20, 1_000_000),
  failuresPerSourceAddress: figure("PAYRAIL_AUTH_FAILURES_PER_ADDRESS", 100, 1_000_000),
  failureWindowSeconds: seconds("PAYRAIL_AUTH_FAILURE_WINDOW_SECONDS", 60),
  requestsPerSecond: figure("PAYRAIL_TOKEN_REQUESTS_PER_SECOND", 100, 1_000_000),
  requestBurst: Config.integer("PAYRAIL_TOKEN_REQUEST_BURST").pipe(
    Config.validate({
      message: "must be between 1 and 1000000",
      validation: (value) => value >= 1 && value <= 1_000_000
    }),
    Config.withDefault(200)
  )
})

// Validated by building the reader once, so a typo fails at start-up rather than trusting nothing silently.
const trustedProxies: Config.Config<ReadonlyArray<string>> = Config.string("PAYRAIL_TRUSTED_PROXIES").pipe(
  Config.withDefault(""),
  Config.map((list) =>
    list
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
  ),
  Config.mapOrFail((list) =>
    Either.try({
      try: () => {
        SourceAddress.make(list)
        return list
      },
      catch: () =>
        ConfigError.InvalidData(
          [],
          "use comma-separated IP addresses, CIDR ranges, or loopback, linklocal, uniquelocal"
        )
    })
  )
)

const storageKind = Config.literal("postgres", "pglite", "memory")("PAYRAIL_STORAGE")

/**
 * Every setting with its default. `PAYRAIL_STORAGE` defaults to `postgres` when `DATABASE_URL` is set and to
 * `pglite` (embedded, under `PAYRAIL_DATA_DIR`) otherwise.
 */
export const config: Config.Config<ServerConfig> = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  databasePoolSize: Config.integer("PAYRAIL_DATABASE_POOL_SIZE").pipe(
    Config.validate({ message: "must be between 1 and 1000", validation: (size) => size >= 1 && size <= 1000 }),
    Config.withDefault(10)
  ),
  storage: Config.option(storageKind),
  dataDir: Config.string("PAYRAIL_DATA_DIR").pipe(Config.withDefault(".payrail")),
  bootstrap: Config.boolean("PAYRAIL_BOOTSTRAP").pipe(Config.withDefault(true)),
  publicUrl: Config.option(
    Config.url("PAYRAIL_PUBLIC_URL").pipe(Config.map((url) => url.toString().replace(/\/$/, "")))
  ),
  endUserTerms: Config.all({
    version: Config.string("PAYRAIL_END_USER_TERMS_VERSION").pipe(
      Config.validate({ message: "must be 1 to 64 characters", validation: (v) => v.length >= 1 && v.length <= 64 }),
      Config.withDefault(EndUserTerms.defaultTerms.version)
    ),
    url: Config.url("PAYRAIL_END_USER_TERMS_URL").pipe(
      Config.map((url) => url.toString()),
      Config.withDefault(EndUserTerms.defaultTerms.url)
    )
  }),
  logLevel: logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  logFormat: Config.literal("pretty", "logfmt", "json")("LOG_FORMAT").pipe(Config.withDefault("pretty" as const)),
  tracing: Config.boolean("PAYRAIL_TRACING").pipe(Config.withDefault(false)),
  credentialCacheSeconds: Config.integer("PAYRAIL_CREDENTIAL_CACHE_SECONDS").pipe(
    Config.validate({
      message: "must be between 0 and 3600",
      validation: (seconds) => seconds >= 0 && seconds <= 3600
    }),
    Config.withDefault(5)
  ),
  shutdownTimeoutSeconds: Config.integer("PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS").pipe(
    Config.validate({ message: "must be between 0 and 600", validation: (seconds) => seconds >= 0 && seconds <= 600 }),
    Config.withDefault(10)
  ),
  rateLimits,
  trustedProxies,
  headersTimeoutSeconds: seconds("PAYRAIL_HEADERS_TIMEOUT_SECONDS", 10),
  requestTimeoutSeconds: seconds("PAYRAIL_REQUEST_TIMEOUT_SECONDS", 30),
  keepAliveTimeoutSeconds: seconds("PAYRAIL_KEEP_ALIVE_TIMEOUT_SECONDS", 5),
  jobConcurrency: Config.integer("PAYRAIL_JOB_CONCURRENCY").pipe(
    Config.validate({ message: "must be between 1 and 1000", validation: (value) => value >= 1 && value <= 1000 }),
    Config.withDefault(128)
  ),
  jobLeaseSeconds: seconds("PAYRAIL_JOB_LEASE_SECONDS", 60),
  webhookSecretOverlapSeconds: figure("PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS", 86_400, 30 * 86_400),
  documentMaxBytes: Config.integer("PAYRAIL_DOCUMENT_MAX_BYTES").pipe(
    Config.validate({
      message: "must be between 1 and 1073741824",
      validation: (value) => value >= 1 && value <= 1024 * 1024 * 1024
    }),
    Config.withDefault(DocumentLimits.defaultMaxFileBytes)
  ),
  bulkImportMaxBytes: Config.integer("PAYRAIL_BULK_IMPORT_MAX_BYTES").pipe(
    Config.validate({
      message: "must be between 1 and 1073741824",
      validation: (value) => value >= 1 && value <= 1024 * 1024 * 1024
    }),
    Config.withDefault(BulkImportLimits.defaultMaxFileBytes)
  )
}).pipe(
  Config.validate({
    message: "PAYRAIL_HEADERS_TIMEOUT_SECONDS must not exceed PAYRAIL_REQUEST_TIMEOUT_SECONDS",
    validation: (settings) => settings.headersTimeoutSeconds <= settings.requestTimeoutSeconds
  }),
  Config.map(({ storage, ...rest }) => ({
    ...rest,
    storage: Option.getOrElse(storage, (): StorageKind => (Option.isSome(rest.databaseUrl) ? "postgres" : "pglite"))
  }))
)

/** The URL clients use to reach this server. */
export const baseUrl = (settings: ServerConfig): string =>
  Option.getOrElse(
    settings.publicUrl,
    () => `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${settings.port}`
  )
