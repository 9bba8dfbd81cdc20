import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { PgliteClient } from "../src/index.js"

// Its own file, so that this test process holds no other PGlite instance (vitest runs each file in its own process).
const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "payrail-pglite-initdb-"))),
  (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
)

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20)

describe("PgliteClient on a fresh data directory", () => {
  // initdb in the serving instance grew its WebAssembly memory to about 570 MB (off the V8 heap, counted in
  // `external`) for the life of the process; an existing directory opens at about 150 MB.
  it.live(
    "creates the database outside this process: the instance it serves from is as small as on an existing directory",
    () =>
      Effect.gen(function* () {
        const dataDir = join(yield* temporaryDirectory, "nested", "pglite")
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          expect(yield* sql<{ shared_buffers: string }>`SHOW shared_buffers`).toEqual([{ shared_buffers: "16MB" }])
          expect(megabytes(process.memoryUsage().external)).toBeLessThan(300)
        }).pipe(Effect.provide(PgliteClient.layer({ dataDir })))
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )

  it.live(
    "reopens what it created with its data",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* temporaryDirectory
        yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`CREATE TABLE kept (id integer PRIMARY KEY); INSERT INTO kept VALUES (7)`.unprepared
        ).pipe(Effect.provide(PgliteClient.layer({ dataDir })))
        const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: number }>`SELECT id FROM kept`).pipe(
          Effect.provide(PgliteClient.layer({ dataDir }))
        )
        expect(rows).toEqual([{ id: 7 }])
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
