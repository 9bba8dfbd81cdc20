import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { PlatformRepo, UnitOfWork } from "@payrail/core"
import { Fixtures, StorageConformance } from "@payrail/storage-testkit"
import * as SqlClient from "@effect/sql/SqlClient"
import { Deferred, Effect, Fiber, Option } from "effect"
import { StoragePostgres } from "../src/index.js"
import * as AdapterSuite from "./AdapterSuite.js"
import * as JobClaimSuite from "./events/JobClaimSuite.js"
import * as Pglite from "./fixtures/Pglite.js"
import * as TransactionPlanSuite from "./payments/TransactionPlanSuite.js"
import * as StatementSuite from "./StatementSuite.js"
import * as StoredRecordsSuite from "./StoredRecordsSuite.js"
import * as UseCaseStatementSuite from "./UseCaseStatementSuite.js"
import * as WriteBehindSuite from "./kernel/WriteBehindSuite.js"

StorageConformance.run("pglite", Pglite.layer())

AdapterSuite.register("pglite", Pglite.layer())

StatementSuite.register("pglite", Pglite.layer())

StoredRecordsSuite.register("pglite", Pglite.layer())
UseCaseStatementSuite.register("pglite", Pglite.layer())
WriteBehindSuite.register("pglite", Pglite.layer())
TransactionPlanSuite.register("pglite", Pglite.layer())
JobClaimSuite.register("pglite", Pglite.layer())

describe("storage-postgres on pglite, in process", () => {
  // The 128 MB PostgreSQL default is resident memory in PGlite's heap; one process needs far less.
  it.effect("runs with 16 MB of shared buffers", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql<{ shared_buffers: string }>`SHOW shared_buffers`).toEqual([{ shared_buffers: "16MB" }])
    }).pipe(Effect.provide(Pglite.layerClient))
  )

  it.live(
    "keeps its data in a data directory across close and reopen",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* Effect.acquireRelease(
          Effect.promise(() => mkdtemp(join(tmpdir(), "payrail-pglite-test-"))),
          (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
        )
        const platform = Fixtures.platform()
        yield* Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.insert(platform)).pipe(
          Effect.provide(Pglite.layer({ dataDir }))
        )
        const reopened = yield* Effect.flatMap(PlatformRepo.PlatformRepo, (repo) => repo.findById(platform.id)).pipe(
          Effect.provide(StoragePostgres.layerPglite({ dataDir }))
        )
        expect(reopened).toEqual(Option.some(platform))
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )

  it.live(
    "makes a statement outside a unit of work wait until the running one has committed",
    () =>
      Effect.gen(function* () {
        const store = yield* UnitOfWork.UnitOfWork
        const repo = yield* PlatformRepo.PlatformRepo
        const platform = Fixtures.platform()
        const inserted = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const unit = yield* Effect.fork(
          store.transaction(
            Effect.zipRight(
              Effect.zipRight(repo.insert(platform), Deferred.succeed(inserted, undefined)),
              Deferred.await(commit)
            )
          )
        )
        yield* Deferred.await(inserted)
        const reader = yield* Effect.fork(repo.findById(platform.id))
        yield* Effect.sleep("100 millis")
        expect(Option.isNone(yield* Fiber.poll(reader))).toBe(true)
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(unit)
        expect(yield* Fiber.join(reader)).toEqual(Option.some(platform))
      }).pipe(Effect.provide(Pglite.layer())),
    { timeout: 60_000 }
  )
})
