import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option } from "effect"
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
 * Optional: told how many migrations a run applies and each one as it completes, with how long it took, so a command
 * line can show the progress of a long upgrade. Provide it around the layer that migrates.
 */
export class MigrationProgress extends Context.Tag("@payrail/storage-postgres/MigrationProgress")<
  MigrationProgress,
  {
    readonly pending: (count: number) => Effect.Effect<void>
    readonly applied: (migration: {
      readonly id: number
      readonly name: string
      readonly millis: number
    }) => Effect.Effect<void>
  }
>() {}

// The loader, with each migration reporting itself to `progress` once it has run.
const reportingLoader = (progress: MigrationProgress["Type"]): Migrator.Loader =>
  Effect.map(loader, (migrations) =>
    migrations.map(([id, name, load]): Migrator.ResolvedMigration => [
      id,
      name,
      Effect.map(load, (migration: Effect.Effect<unknown, unknown, SqlClient.SqlClient>) =>
        Effect.gen(function* () {
          const started = performance.now()
          yield* migration
          yield* progress.applied({ id, name, millis: Math.round(performance.now() - started) })
        })
      )
    ])
  )

/**
 * Brings the schema up to date and returns the migrations it applied (none when it already was), telling
 * `MigrationProgress`, when provided, about each. All pending
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
      const progress = yield* Effect.serviceOption(MigrationProgress)
      if (Option.isNone(progress)) return yield* Migrator.make({})({ loader, table })
      const [latest] = yield* sql<{ readonly latest: number }>`SELECT coalesce(max(migration_id), 0)::int AS latest
        FROM ${sql(table)}`
      const known = yield* loader
      yield* progress.value.pending(known.filter(([id]) => id > (latest?.latest ?? 0)).length)
      return yield* Migrator.make({})({ loader: reportingLoader(progress.value), table })
    })
  )
)

/** Runs `run` when built; provide it before the repositories so that they only ever see an up-to-date schema. */
export const layer: Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =
  Layer.effectDiscard(run)
