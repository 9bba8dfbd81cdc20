import { Effect, Layer, Option } from "effect"
import path from "node:path"
import { Domain, Errors, Ids, type Storage } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import type { ServerConfig } from "./ServerConfig.js"

/** The storage adapter the configuration names; migrations run before the layer is ready. */
export const storage = (settings: ServerConfig): Layer.Layer<Storage.Services, Errors.StoreFailure> => {
  switch (settings.storage) {
    case "memory":
      return StorageMemory.layer
    case "pglite":
      return StoragePostgres.layerPglite({ dataDir: path.resolve(settings.dataDir, "pglite") })
    case "postgres":
      return Option.match(settings.databaseUrl, {
        onNone: () => Layer.fail(Errors.StoreFailure.of("PAYRAIL_STORAGE=postgres needs DATABASE_URL")),
        onSome: StoragePostgres.layerPostgres
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

/** The domain on the configured storage, with the sandbox providers and secure ids. */
export const make = (settings: ServerConfig): Layer.Layer<Domain.Services | Storage.Services, Errors.StoreFailure> =>
  Domain.layer.pipe(
    Layer.provideMerge(storage(settings)),
    Layer.provide(Sandbox.layer),
    Layer.provide(Ids.layer),
    Layer.tapErrorCause((cause) => Effect.logError("could not open storage", cause))
  )
