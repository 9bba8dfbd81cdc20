import { readdirSync } from "node:fs"
import { readFile } from "node:fs/promises"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Migrations } from "../src/index.js"
import * as MigrationScript from "./fixtures/MigrationScript.js"
import * as Pglite from "./fixtures/Pglite.js"
import * as Postgres from "./fixtures/Postgres.js"

// The SQL every migration ran when all of them were inline in Migrations.ts, recorded from that code: databases
// migrated then must see no change, so the modules must run exactly these statements. A shipped migration never
// changes; later ones are appended after them.
const before = Effect.promise(() => readFile(new URL("./fixtures/migrations-0001-0008.sql", import.meta.url), "utf8"))

const shipped: ReadonlyArray<readonly [number, string]> = [
  [1, "platforms"],
  [2, "api_tokens"],
  [3, "customers"],
  [4, "outbox"],
  [5, "ledger"],
  [6, "internal_accounts"],
  [7, "auth_methods"],
  [8, "external_accounts"]
]

// What a migrated schema consists of, read from the catalogs: every column, index, constraint, function and
// trigger, and the recorded migrations (ids and names, not their times).
const schemaOf = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* Effect.all({
    columns: sql`SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    indexes: sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
    constraints: sql`SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    functions: sql`SELECT proname, pg_get_functiondef(oid) AS def
      FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    triggers: sql`SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`,
    migrations: sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`
  })
})

// A database as the code before the split left it: its migrations table and rows, and the recorded statements.
const migratedBeforeTheSplit = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const statements = MigrationScript.parse(yield* before)
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`CREATE TABLE ${sql(Migrations.table)} (
        migration_id integer PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        name text NOT NULL
      )`
      yield* sql`INSERT INTO ${sql(Migrations.table)} ${sql.insert(
        shipped.map(([migration_id, name]) => ({ migration_id, name }))
      )}`
      yield* Effect.forEach(statements, ([, statement]) => sql.unsafe(statement), { discard: true })
    })
  )
})

const loadedIds = Effect.map(Migrations.loader, (loaded) => loaded.map(([id, name]) => [id, name] as const))

// The migrations shipped before the split, as the loader resolves them (later ones left out).
const shippedLoader = Effect.map(Migrations.loader, (loaded) => loaded.filter(([id]) => id <= shipped.length))

const sameSchema = (client: () => Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.gen(function* () {
    const all = yield* loadedIds
    const old = yield* Effect.gen(function* () {
      yield* migratedBeforeTheSplit
      expect(yield* Migrations.run).toEqual(all.slice(shipped.length))
      return yield* schemaOf
    }).pipe(Effect.provide(client()))
    const fresh = yield* Effect.gen(function* () {
      expect(yield* Migrations.run).toEqual(all)
      return yield* schemaOf
    }).pipe(Effect.provide(client()))
    expect(fresh.migrations.slice(0, shipped.length)).toEqual(
      shipped.map(([migration_id, name]) => ({ migration_id, name }))
    )
    expect(fresh.functions.length).toBeGreaterThan(0)
    expect(old).toEqual(fresh)
  })

describe("Migrations", () => {
  it.effect("runs exactly the statements recorded before the migrations were split into modules", () =>
    Effect.gen(function* () {
      const now = yield* MigrationScript.render(shippedLoader)
      expect(now).not.toContain("-- params:")
      expect(now).toBe(yield* before)
    })
  )

  it.effect(
    "loads one module per file of src/migrations, keyed by its file name, the shipped ids and names first",
    () =>
      Effect.gen(function* () {
        const files = readdirSync(new URL("../src/migrations", import.meta.url))
          .filter((file) => /^\d{4}_.+\.ts$/.test(file))
          .sort()
        const loaded = yield* loadedIds
        expect(loaded.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}.ts`)).toEqual(files)
        expect(loaded.slice(0, shipped.length)).toEqual(shipped)
        // Consecutive ids, but for 20: taken by the outgoing UMA branch, merged separately.
        const ids = loaded.map(([id]) => id)
        expect(ids).toEqual(ids.map((_, index) => (index + 1 >= 20 ? index + 2 : index + 1)))
      })
  )

  it.live(
    "counts the customers a database already holds when it adds the customer counters",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // The Migrator runs only ids above the latest applied: stop just before the counters.
        const all = yield* Migrations.loader
        const countsId = all.find(([, name]) => name === "customer_counts")?.[0] ?? 0
        const before = Effect.succeed(all.filter(([id]) => id < countsId))
        yield* Migrator.make({})({ loader: before, table: Migrations.table })
        const customer = (id: string, platformId: string, type: string) =>
          sql`INSERT INTO customers ${sql.insert({
            id,
            platform_id: platformId,
            platform_customer_id: id,
            customer_type: type,
            record: "{}",
            version: 1,
            created_at: "2025-01-01T00:00:00Z",
            updated_at: "2025-01-01T00:00:00Z"
          })}`
        yield* Effect.forEach(
          [
            customer("Customer:0000000a", "Platform:a", "INDIVIDUAL"),
            customer("Customer:0000000b", "Platform:a", "INDIVIDUAL"),
            customer("Customer:1000000a", "Platform:a", "INDIVIDUAL"),
            customer("Customer:0000000c", "Platform:a", "BUSINESS"),
            customer("Customer:0000000d", "Platform:b", "BUSINESS")
          ],
          (insert) => insert,
          { discard: true }
        )
        expect((yield* Migrations.run).map(([, name]) => name)).toEqual(
          all.filter(([id]) => id >= countsId).map(([, name]) => name)
        )
        const counts = yield* sql`SELECT platform_id, customer_type, slot, n::int AS n FROM customer_counts
          ORDER BY platform_id, customer_type, slot`
        expect(counts).toEqual([
          { platform_id: "Platform:a", customer_type: "BUSINESS", slot: 13, n: 1 },
          { platform_id: "Platform:a", customer_type: "INDIVIDUAL", slot: 11, n: 2 },
          { platform_id: "Platform:a", customer_type: "INDIVIDUAL", slot: 12, n: 1 },
          { platform_id: "Platform:b", customer_type: "BUSINESS", slot: 14, n: 1 }
        ])
      }).pipe(Effect.provide(Pglite.layerClient)),
    { timeout: 60_000 }
  )

  it.live(
    "leaves a PGlite database migrated before the split exactly as a fresh one",
    () => sameSchema(() => Pglite.layerClient),
    {
      timeout: 60_000
    }
  )

  it.live.skipIf(!Postgres.configured)(
    "leaves a PostgreSQL database migrated before the split exactly as a fresh one (DATABASE_URL)",
    () => sameSchema(() => Postgres.layerClient.pipe(Layer.provide(Postgres.layerDatabase))),
    { timeout: 60_000 }
  )
})
