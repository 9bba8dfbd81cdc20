import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { all } from "./migrations/index.js"

/** The table in which applied migrations are recorded. */
export const table = "payrail_migrations"

// Any fixed 64-bit number works; it only has to be the same for every server sharing the database.
const advisoryLockKey = 5_071_977_210_413

/**
 * Every migration as the Migrator loads it, in id order: `[id, name, effect]`, one module each under
 * `migrations/` (see `migrations/index.ts`).
 */
export const loader: Migrator.Loader = Migrator.fromRecord(all)

/**
 * Brings the schema up to date and returns the migrations it applied (none when it already was). All pending
 * migrations apply in one unit of work: a failure leaves the schema as it was. Servers starting together against
 * one database are safe: they take turns on an advisory lock, and all but the first find nothing to do.
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(${advisoryLockKey})`
      // The Migrator creates its table outside any lock; creating it here, under the lock, avoids that race.
      yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
        migration_id integer PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        name text NOT NULL
      )`
      return yield* Migrator.make({})({ loader, table })
    })
  )
)

/** Runs `run` when built; provide it before the repositories so that they only ever see an up-to-date schema. */
export const layer: Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =
  Layer.effectDiscard(run)
