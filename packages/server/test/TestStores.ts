import type { Layer } from "effect"
import { Redacted } from "effect"
import type { Storage } from "@payrail/core"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import { createTemporaryDatabase } from "./TemporaryDatabase.js"

/** A store to run on: a fresh, empty one per call, and how to get rid of it. */
export interface Store {
  readonly layer: Layer.Layer<Storage.Services, unknown>
  readonly dispose: () => Promise<void>
}

/** The stores an in-process test can run on, by the name its `describe` shows. */
export type StoreName = "memory" | "PGlite" | "PostgreSQL"

/**
 * Memory and PGlite always; PostgreSQL (a database of its own, named after `prefix`, on the `DATABASE_URL` server)
 * when that is set. Each `make` answers a new, empty store.
 */
export const stores = (
  prefix: string
): ReadonlyArray<{ readonly name: StoreName; readonly make: () => Promise<Store> }> => {
  const databaseUrl = process.env["DATABASE_URL"]
  return [
    { name: "memory", make: async () => ({ layer: StorageMemory.layer, dispose: async () => {} }) },
    { name: "PGlite", make: async () => ({ layer: StoragePostgres.layerPglite(), dispose: async () => {} }) },
    ...(databaseUrl === undefined
      ? []
      : [
          {
            name: "PostgreSQL" as const,
            make: async () => {
              const database = await createTemporaryDatabase(databaseUrl, prefix)
              return {
                layer: StoragePostgres.layerPostgres(Redacted.make(database.url)),
                dispose: () => database.drop()
              }
            }
          }
        ])
  ]
}
