import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { config } from "../src/ServerConfig.js"

const read = (env: Record<string, string>) =>
  config.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("ServerConfig", () => {
  it.effect("records no spans unless PAYRAIL_TRACING asks for them", () =>
    Effect.gen(function* () {
      expect((yield* read({})).tracing).toBe(false)
      expect((yield* read({ PAYRAIL_TRACING: "true" })).tracing).toBe(true)
      expect(yield* Effect.flip(read({ PAYRAIL_TRACING: "sometimes" }))).toBeDefined()
    })
  )

  it.effect("reads the client timeouts, refusing a header deadline past the request deadline", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({
        headersTimeoutSeconds: 10,
        requestTimeoutSeconds: 30,
        keepAliveTimeoutSeconds: 5
      })
      expect(yield* read({ PAYRAIL_REQUEST_TIMEOUT_SECONDS: "60" })).toMatchObject({ requestTimeoutSeconds: 60 })
      expect(
        yield* Effect.flip(read({ PAYRAIL_HEADERS_TIMEOUT_SECONDS: "20", PAYRAIL_REQUEST_TIMEOUT_SECONDS: "10" }))
      ).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_KEEP_ALIVE_TIMEOUT_SECONDS: "0" }))).toBeDefined()
    })
  )

  it.effect("reads the rate limits and trusted proxies, refusing a proxy entry that is no address or range", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({
        rateLimits: {
          failuresPerClientId: 20,
          failuresPerSourceAddress: 100,
          failureWindowSeconds: 60,
          requestsPerSecond: 100,
          requestBurst: 200
        },
        trustedProxies: []
      })
      expect(
        yield* read({ PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0", PAYRAIL_TRUSTED_PROXIES: "loopback, 10.0.0.0/8" })
      ).toMatchObject({ rateLimits: { requestsPerSecond: 0 }, trustedProxies: ["loopback", "10.0.0.0/8"] })
      expect(yield* Effect.flip(read({ PAYRAIL_TRUSTED_PROXIES: "the-load-balancer" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_AUTH_FAILURES_PER_CLIENT_ID: "-1" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_TOKEN_REQUEST_BURST: "0" }))).toBeDefined()
    })
  )

  it.effect("reads the End User Terms' version and address, V1 at the project's address by default", () =>
    Effect.gen(function* () {
      expect((yield* read({})).endUserTerms).toEqual({
        version: "V1",
        url: "https://payrail.dev/legal/end-user-terms/V1"
      })
      const set = yield* read({
        PAYRAIL_END_USER_TERMS_VERSION: "2025-10-13",
        PAYRAIL_END_USER_TERMS_URL: "https://example.com/terms"
      })
      expect(set.endUserTerms).toEqual({ version: "2025-10-13", url: "https://example.com/terms" })
      expect(yield* Effect.flip(read({ PAYRAIL_END_USER_TERMS_URL: "not a url" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_END_USER_TERMS_VERSION: "" }))).toBeDefined()
    })
  )

  it.effect("reads the PostgreSQL pool size and the credential cache's lifetime, within their bounds", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({ databasePoolSize: 10, credentialCacheSeconds: 5 })
      expect(yield* read({ PAYRAIL_DATABASE_POOL_SIZE: "4", PAYRAIL_CREDENTIAL_CACHE_SECONDS: "0" })).toMatchObject({
        databasePoolSize: 4,
        credentialCacheSeconds: 0
      })
      expect(yield* Effect.flip(read({ PAYRAIL_DATABASE_POOL_SIZE: "0" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_CREDENTIAL_CACHE_SECONDS: "3601" }))).toBeDefined()
    })
  )

  it.effect("reads the job worker's concurrency and lease, refusing values out of range", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({ jobConcurrency: 128, jobLeaseSeconds: 60 })
      expect(yield* read({ PAYRAIL_JOB_CONCURRENCY: "32", PAYRAIL_JOB_LEASE_SECONDS: "300" })).toMatchObject({
        jobConcurrency: 32,
        jobLeaseSeconds: 300
      })
      expect(yield* Effect.flip(read({ PAYRAIL_JOB_CONCURRENCY: "0" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_JOB_CONCURRENCY: "1001" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_JOB_LEASE_SECONDS: "0" }))).toBeDefined()
    })
  )

  it.effect("reads the webhook secret overlap, 24 hours unless set, at most 30 days", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({ webhookSecretOverlapSeconds: 86_400 })
      expect(yield* read({ PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS: "0" })).toMatchObject({
        webhookSecretOverlapSeconds: 0
      })
      expect(yield* Effect.flip(read({ PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS: "2592001" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS: "-1" }))).toBeDefined()
    })
  )

  it.effect("reads the document size limit, 10 MiB unless set, from 1 byte to 1 GiB", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({ documentMaxBytes: 10 * 1024 * 1024 })
      expect(yield* read({ PAYRAIL_DOCUMENT_MAX_BYTES: "4096" })).toMatchObject({ documentMaxBytes: 4096 })
      expect(yield* Effect.flip(read({ PAYRAIL_DOCUMENT_MAX_BYTES: "0" }))).toBeDefined()
      expect(yield* Effect.flip(read({ PAYRAIL_DOCUMENT_MAX_BYTES: "1073741825" }))).toBeDefined()
    })
  )

  it.effect("reads the bulk import size limit, 64 MiB unless set, from 1 byte to 1 GiB", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toMatchObject({ bulkImportMaxBytes: 64 * 1024 * 1024 })
      expect(yield* read({ PAYRAIL_BULK_IMPORT_MAX_BYTES: "4096" })).toMatchObject({ bulkImportMaxBytes: 4096 })
      expect(yield* Effect.flip(read({ PAYRAIL_BULK_IMPORT_MAX_BYTES: "0" }))).toBeDefined()
    })
  )
})
