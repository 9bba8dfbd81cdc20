import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { PlatformRepo } from "@payrail/core"
import { StorageConformance } from "@payrail/storage-testkit"
import { Effect, Layer } from "effect"
import { Migrations, StoragePostgres } from "../src/index.js"
import * as AdapterSuite from "./AdapterSuite.js"
import * as Postgres from "./fixtures/Postgres.js"
import * as StatementSuite from "./StatementSuite.js"
import * as StoredRecordsSuite from "./StoredRecordsSuite.js"
import * as UseCaseStatementSuite from "./UseCaseStatementSuite.js"

// Without DATABASE_URL every test here is reported as skipped, never as passed.
describe.skipIf(!Postgres.configured)("storage-postgres on PostgreSQL (DATABASE_URL)", () => {
  StorageConformance.run("postgres", Postgres.layer)

  AdapterSuite.register("postgres", Postgres.layer)

  StatementSuite.register("postgres", Postgres.layer)

  StoredRecordsSuite.register("postgres", Postgres.layer)
  UseCaseStatementSuite.register("postgres", Postgres.layer)

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
})
