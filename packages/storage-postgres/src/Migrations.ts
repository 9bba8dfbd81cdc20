import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { customersPlatformCustomerIdKey } from "./internal/constraints.js"

/** The table in which applied migrations are recorded. */
export const table = "payrail_migrations"

// Any fixed 64-bit number works; it only has to be the same for every server sharing the database.
const advisoryLockKey = 5_071_977_210_413

const statements = (...run: ReadonlyArray<(sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError>>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(run, (statement) => statement(sql), { discard: true }))

// Ids are collated "C" so that ordering them matches JavaScript string order, as in the memory adapter.
// Each record is kept encoded in `record`; the other columns exist to find, filter and order rows.
const migrations: Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>> = {
  "0001_platforms": statements(
    (sql) => sql`CREATE TABLE platforms (
      id text COLLATE "C" PRIMARY KEY,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
  ),
  "0002_api_tokens": statements(
    (sql) => sql`CREATE TABLE api_tokens (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      client_id text NOT NULL CONSTRAINT api_tokens_client_id_key UNIQUE,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
    (sql) => sql`CREATE INDEX api_tokens_platform_idx ON api_tokens (platform_id, created_at, id)`
  ),
  "0003_customers": statements(
    (sql) => sql`CREATE TABLE customers (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      platform_customer_id text NOT NULL,
      customer_type text NOT NULL,
      region text,
      email text,
      identifier text,
      record jsonb NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT ${sql(customersPlatformCustomerIdKey)} UNIQUE (platform_id, platform_customer_id)
    )`,
    (sql) => sql`CREATE INDEX customers_page_idx ON customers (platform_id, created_at DESC, id DESC)`
  ),
  "0004_outbox": statements(
    (sql) => sql`CREATE TABLE outbox (
      seq bigserial PRIMARY KEY,
      id text NOT NULL CONSTRAINT outbox_id_key UNIQUE,
      platform_id text NOT NULL,
      type text NOT NULL,
      timestamp timestamptz NOT NULL,
      data jsonb NOT NULL,
      delivered_at timestamptz
    )`,
    (sql) => sql`CREATE INDEX outbox_pending_idx ON outbox (seq) WHERE delivered_at IS NULL`
  )
}

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
      return yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table })
    })
  )
)

/** Runs `run` when built; provide it before the repositories so that they only ever see an up-to-date schema. */
export const layer: Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient.SqlClient> = Layer.effectDiscard(run)
