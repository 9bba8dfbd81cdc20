import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { readFile } from "node:fs/promises"
import { inject } from "vitest"
import type { Storage } from "@payrail/core"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by scripts/vitest-global-setup.ts. */
    pgliteTemplatePath: string
  }
}

/** A storage adapter the HTTP tests run on; each `storage()` is a fresh, empty store. */
export interface Adapter {
  readonly name: string
  readonly enabled: boolean
  readonly storage: () => Layer.Layer<Storage.Services, unknown>
}

const databaseUrl = process.env["DATABASE_URL"] ?? ""

const pglite = (): Layer.Layer<Storage.Services, unknown> =>
  Layer.unwrapEffect(
    Effect.promise(async () => {
      const path: string | undefined = inject("pgliteTemplatePath")
      return StoragePostgres.layerPglite(path === undefined ? {} : { loadDataDir: new Blob([await readFile(path)]) })
    })
  )

// A throw-away database on the DATABASE_URL server, dropped when the layer is released.
const postgres = (): Layer.Layer<Storage.Services, unknown> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const admin = yield* PgClient.PgClient
      const name = `payrail_http_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
      yield* Effect.acquireRelease(admin`CREATE DATABASE ${admin(name)}`, () =>
        Effect.orDie(admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`)
      )
      const url = new URL(databaseUrl)
      url.pathname = `/${name}`
      return StoragePostgres.layerPostgres(Redacted.make(url.toString()))
    })
    // Provided to the layer (not to the effect) so the admin connection outlives the database it drops.
  ).pipe(Layer.provide(PgClient.layer({ url: Redacted.make(databaseUrl) })))

/** Memory and PGlite always; PostgreSQL when `DATABASE_URL` is set (a skipped, visible suite otherwise). */
export const adapters: ReadonlyArray<Adapter> = [
  { name: "memory", enabled: true, storage: () => StorageMemory.layer },
  { name: "pglite", enabled: true, storage: pglite },
  { name: "postgres", enabled: databaseUrl !== "", storage: postgres }
]
