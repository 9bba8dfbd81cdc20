import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import {
  ApiTokenRepo,
  ApiTokenSecret,
  Authentication,
  AuthenticationLimits,
  PlatformRepo,
  RateLimit
} from "@payrail/core"
import { Fixtures, StorageConformance } from "@payrail/storage-testkit"
import { Effect, Layer, Option, Redacted } from "effect"
import { Migrations, StoragePostgres } from "../src/index.js"
import * as AdapterSuite from "./AdapterSuite.js"
import * as JobClaimSuite from "./events/JobClaimSuite.js"
import * as Postgres from "./fixtures/Postgres.js"
import * as TransactionPlanSuite from "./payments/TransactionPlanSuite.js"
import * as StatementSuite from "./StatementSuite.js"
import * as StoredRecordsSuite from "./StoredRecordsSuite.js"
import * as UseCaseStatementSuite from "./UseCaseStatementSuite.js"
import * as WriteBehindSuite from "./kernel/WriteBehindSuite.js"

// Without DATABASE_URL every test here is reported as skipped, never as passed.
describe.skipIf(!Postgres.configured)("storage-postgres on PostgreSQL (DATABASE_URL)", () => {
  StorageConformance.run("postgres", Postgres.layer)

  AdapterSuite.register("postgres", Postgres.layer)

  StatementSuite.register("postgres", Postgres.layer)

  StoredRecordsSuite.register("postgres", Postgres.layer)
  UseCaseStatementSuite.register("postgres", Postgres.layer)
  WriteBehindSuite.register("postgres", Postgres.layer)
  TransactionPlanSuite.register("postgres", Postgres.layer)
  JobClaimSuite.register("postgres", Postgres.layer)

  it.live(
    "lets two servers start on one fresh database at once: both come up, the schema is migrated once",
    () =>
      Effect.gen(function* () {
        const { url } = yield* Postgres.TestDatabase
        const server = Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.list).pipe(
          Effect.provide(StoragePostgres.layerPostgres(url))
        )
        yield* Effect.all([server, server, server], { concurrency: "unbounded" })
        const sql = yield* SqlClient.SqlClient
        const applied = yield* sql`SELECT migration_id FROM ${sql(Migrations.table)}`
        expect(applied).toHaveLength((yield* Migrations.loader).length)
      }).pipe(Effect.provide(Postgres.layerClient.pipe(Layer.provideMerge(Postgres.layerDatabase)))),
    { timeout: 60_000 }
  )

  it.live(
    "shares the failed-authentication count between two servers on one database, and locks the right secret out too",
    () =>
      Effect.gen(function* () {
        const { url } = yield* Postgres.TestDatabase
        const secret = Redacted.make("sk_sandbox_the_right_one")
        const limits = {
          ...AuthenticationLimits.none,
          failuresPerClientId: Option.some(RateLimit.perMinute("failed_authentication_per_client_id", 3))
        }
        // Each server is its own pool, limiter and authentication, as two processes would be.
        const server = () =>
          Authentication.layer.pipe(
            Layer.provideMerge(StoragePostgres.layerPostgres(url)),
            Layer.provide(Layer.succeed(AuthenticationLimits.AuthenticationLimits, limits)),
            Layer.build
          )
        const [first, second] = yield* Effect.all([server(), server()])
        const platform = yield* Fixtures.insertPlatform.pipe(Effect.provide(first))
        const token = { ...Fixtures.apiToken(platform.id), secretHash: yield* ApiTokenSecret.hash(secret) }
        yield* Effect.flatMap(ApiTokenRepo.ApiTokenRepo, (tokens) => tokens.insert(token)).pipe(Effect.provide(first))
        const attempt = (context: typeof first, password: Redacted.Redacted<string>) =>
          Effect.flatMap(Authentication.Authentication, (authentication) =>
            authentication.authenticate(token.clientId, password, "192.0.2.1")
          ).pipe(
            Effect.provide(context),
            Effect.flip,
            Effect.map((failure) => failure._tag)
          )
        const wrong = Redacted.make("sk_sandbox_wrong")
        // Two failures on each server: the limit of 3 is shared, so the second server's second one is refused.
        expect(yield* attempt(first, wrong)).toBe("Unauthenticated")
        expect(yield* attempt(first, wrong)).toBe("Unauthenticated")
        expect(yield* attempt(second, wrong)).toBe("Unauthenticated")
        expect(yield* attempt(second, wrong)).toBe("RateLimited")
        expect(yield* attempt(second, secret)).toBe("RateLimited")
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT key FROM rate_limits`).toEqual([{ key: `auth-failures:client-id:${token.clientId}` }])
      }).pipe(Effect.scoped, Effect.provide(Postgres.layerClient.pipe(Layer.provideMerge(Postgres.layerDatabase)))),
    { timeout: 60_000 }
  )
})
