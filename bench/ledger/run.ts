import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { cpus, tmpdir } from "node:os"
import path from "node:path"
import type * as EffectModule from "effect"
import type * as PgClientModule from "@effect/sql-pg/PgClient"
import { Ledger, Platform, SystemAccounts } from "../../packages/core/src/index.js"
import { StoragePostgres } from "../../packages/storage-postgres/src/index.js"
import { measurePages } from "./pages.js"
import { importFromStoragePostgres } from "./importFromStoragePostgres.js"

// Conditional-debit postings per second on PostgreSQL through `Ledger.post` (PgLedger), next to pgbench running
// the same shape of transaction by hand (guarded debit, credit, one posting record, two entry rows) on the same
// tables in the same throw-away database. The two take turns in rounds, so that load from other processes hits
// both alike; the table shows medians over rounds and the median of the per-round ratios. Environment:
// DATABASE_URL (default: the local server), LEDGER_BENCH_SECONDS (per run, default 4), LEDGER_BENCH_ROUNDS
// (default 3), LEDGER_BENCH_ACCOUNTS (default 5000), PGBENCH (the binary).

const { Cause, Effect, Exit, Fiber, Layer, Redacted } = await importFromStoragePostgres<typeof EffectModule>("effect")
const { PgClient, layer: pgLayer } = await importFromStoragePostgres<typeof PgClientModule>(
  "@effect/sql-pg",
  "./PgClient"
)

const serverUrl = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
const seconds = Number(process.env["LEDGER_BENCH_SECONDS"] ?? "4")
const rounds = Number(process.env["LEDGER_BENCH_ROUNDS"] ?? "3")
const warmUpSeconds = 1
const accountCount = Number(process.env["LEDGER_BENCH_ACCOUNTS"] ?? "5000")
const writerCounts = [1, 4, 16] as const
const pgbenchBinary =
  process.env["PGBENCH"] ??
  (existsSync("/usr/lib/postgresql/15/bin/pgbench") ? "/usr/lib/postgresql/15/bin/pgbench" : "pgbench")

const databaseName = `payrail_bench_ledger_${globalThis.crypto.randomUUID().replaceAll("-", "")}`
const databaseUrl = (() => {
  const url = new URL(serverUrl)
  url.pathname = `/${databaseName}`
  return url.toString()
})()
const platformId = Platform.PlatformId.make(`Platform:${globalThis.crypto.randomUUID()}`)
const accountIds = Array.from(
  { length: accountCount },
  (_, index) => `InternalAccount:bench-${String(index).padStart(6, "0")}`
)
const clearing = SystemAccounts.accountId(platformId, "RAIL_CLEARING", "USD")

// pgbench writes the same tables under other account ids. Guarded rows are taken in ascending order, as the
// ledger does, so neither side deadlocks.
const pgbenchScript = (hotRow: boolean): string => {
  const account = (variable: string) => `'pgbench:' || :${variable}`
  const debit = (variable: string) =>
    `UPDATE ledger_accounts SET posted_minor = posted_minor - 1 WHERE id = ${account(variable)} AND posted_minor - pending_debits_minor >= 1;`
  const credit = (target: string) => `UPDATE ledger_accounts SET posted_minor = posted_minor + 1 WHERE id = ${target};`
  const updates = hotRow
    ? [debit("from"), credit("'pgbench-hot'")]
    : [
        "\\if :from < :to",
        debit("from"),
        credit(account("to")),
        "\\else",
        credit(account("to")),
        debit("from"),
        "\\endif"
      ]
  const entry = (line: number, variable: string, amount: number) =>
    `INSERT INTO ledger_entries (posting_id, line, platform_id, account_id, currency, amount_minor, created_at) VALUES (:posting_id, ${line}, 'Platform/pgbench', ${variable === "hot" ? "'pgbench-hot'" : account(variable)}, 'USD', ${amount}, now());`
  return [
    `\\set from random(1, ${accountCount})`,
    `\\set to random(1, ${accountCount - 1})`,
    "\\if :to >= :from",
    "\\set to :to + 1",
    "\\endif",
    "BEGIN;",
    ...updates,
    "INSERT INTO ledger_postings (id, platform_id, idempotency_key, fingerprint, status, description, created_at) VALUES ('Posting:' || gen_random_uuid(), 'Platform/pgbench', CAST(gen_random_uuid() AS text), 'pgbench', 'posted', 'pgbench transfer', now()) RETURNING id AS posting_id \\gset",
    entry(1, "from", -1),
    entry(2, hotRow ? "hot" : "to", 1),
    "END;",
    ""
  ].join("\n")
}

const runPgbench = async (directory: string, clients: number, hotRow: boolean): Promise<number> => {
  const script = path.join(directory, hotRow ? "hot-row.sql" : "transfer.sql")
  await writeFile(script, pgbenchScript(hotRow))
  const threads = String(Math.min(clients, 4))
  const args = [
    "-n",
    "-M",
    "prepared",
    "-c",
    String(clients),
    "-j",
    threads,
    "-T",
    String(seconds),
    "-f",
    script,
    databaseUrl
  ]
  spawnSync(pgbenchBinary, [...args.slice(0, 7), "-T", String(warmUpSeconds), ...args.slice(9)], { encoding: "utf8" })
  const result = spawnSync(pgbenchBinary, args, { encoding: "utf8" })
  const tps = /tps = ([0-9.]+)/.exec(result.stdout)?.[1]
  if (result.status !== 0 || tps === undefined || /aborted/.test(result.stdout + result.stderr)) {
    throw new Error(`pgbench failed (${result.status}): ${result.stderr}${result.stdout}`)
  }
  return Number(tps)
}

type LedgerService = EffectModule.Effect.Effect.Success<typeof Ledger.Ledger>

const pick = (): string => accountIds[Math.floor(Math.random() * accountIds.length)] ?? ""

const transfer = (writer: number, sequence: number, toSystem: boolean): Ledger.Posting => {
  const from = pick()
  let to = toSystem ? clearing : pick()
  while (to === from) to = pick()
  return {
    platformId,
    idempotencyKey: `bench-${toSystem ? "s" : "t"}-${writer}-${sequence}-${performance.now()}`,
    status: "posted",
    description: toSystem ? "bench payout" : "bench transfer",
    entries: [
      { accountId: from, currency: "USD", amountMinor: -1n },
      { accountId: to, currency: "USD", amountMinor: 1n }
    ]
  }
}

// `writers` fibers post back to back until the deadline; every posting must apply (the accounts are funded).
const runLedger = (ledger: LedgerService, writers: number, durationSeconds: number, toSystem: boolean) =>
  Effect.gen(function* () {
    const deadline = performance.now() + durationSeconds * 1000
    const started = performance.now()
    const counts = yield* Effect.forEach(
      Array.from({ length: writers }, (_, writer) => writer),
      (writer) =>
        Effect.gen(function* () {
          let done = 0
          while (performance.now() < deadline) {
            const result = yield* ledger.post(transfer(writer, done, toSystem))
            if (!result.applied) return yield* Effect.dieMessage("a fresh posting was not applied")
            done += 1
          }
          return done
        }),
      { concurrency: "unbounded" }
    )
    return counts.reduce((sum, count) => sum + count, 0) / ((performance.now() - started) / 1000)
  })

/** Postings per second after a warm-up, and this process's CPU time per posting in microseconds. */
const measureLedger = (ledger: LedgerService, writers: number, toSystem: boolean) =>
  Effect.gen(function* () {
    yield* runLedger(ledger, writers, warmUpSeconds, toSystem)
    const before = process.cpuUsage()
    const rate = yield* runLedger(ledger, writers, seconds, toSystem)
    const used = process.cpuUsage(before)
    return { rate, cpuMicros: (used.user + used.system) / (rate * seconds) }
  })

const setUp = (ledger: LedgerService) =>
  Effect.gen(function* () {
    yield* Effect.forEach(SystemAccounts.accountsFor(platformId, ["USD"]), ledger.openAccount, { discard: true })
    yield* Effect.forEach(
      accountIds,
      (id) =>
        Effect.zipRight(
          ledger.openAccount(SystemAccounts.guardedAccount(platformId, id, "USD")),
          ledger.post({
            platformId,
            idempotencyKey: `fund-${id}`,
            status: "posted",
            description: "bench funding",
            entries: [
              { accountId: clearing, currency: "USD", amountMinor: -1_000_000_000n },
              { accountId: id, currency: "USD", amountMinor: 1_000_000_000n }
            ]
          })
        ),
      { concurrency: 16, discard: true }
    )
    const sql = yield* PgClient
    yield* sql`INSERT INTO ledger_accounts (id, platform_id, currency, guarded, posted_minor, pending_debits_minor, pending_credits_minor)
      SELECT 'pgbench:' || n, 'Platform/pgbench', 'USD', true, 1000000000, 0, 0 FROM generate_series(1, ${accountCount}) AS n
      UNION ALL SELECT 'pgbench-hot', 'Platform/pgbench', 'USD', true, 0, 0, 0`
    yield* sql`VACUUM ANALYZE`
  })

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
const format = (perSecond: number) => Math.round(perSecond).toLocaleString("en-US").padStart(12)
const row = (label: string, cells: ReadonlyArray<string>) => console.log(`${label.padEnd(62)}${cells.join("")}`)

interface Samples {
  readonly ledger: Array<number>
  readonly pgbench: Array<number>
  readonly ratio: Array<number>
  readonly system: Array<number>
  readonly cpuMicros: Array<number>
}

const benchmark = Effect.gen(function* () {
  const ledger = yield* Ledger.Ledger
  const sql = yield* PgClient
  const [server] = yield* sql<{ version: string }>`SELECT current_setting('server_version') AS version`
  console.log(
    `PostgreSQL ${server?.version ?? "?"} at ${new URL(serverUrl).host}; ${cpus().length} cores shared by the server, pgbench and Node ${process.version}`
  )
  console.log(
    `${accountCount.toLocaleString("en-US")} funded accounts per side; transfers of 1 minor unit between random accounts`
  )
  console.log(
    `${rounds} interleaved rounds of ${seconds} s runs (each after ${warmUpSeconds} s of warm-up); medians over rounds`
  )
  yield* setUp(ledger)
  const directory = yield* Effect.acquireRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "payrail-bench-ledger-"))),
    (created) => Effect.promise(() => rm(created, { recursive: true, force: true }))
  )
  const samples = writerCounts.map((): Samples => ({ ledger: [], pgbench: [], ratio: [], system: [], cpuMicros: [] }))
  const hotRow: Array<number> = []
  for (const [index, writers] of writerCounts.entries()) {
    const cell = samples[index]
    if (cell === undefined) continue
    for (let round = 0; round < rounds; round++) {
      const measured = yield* measureLedger(ledger, writers, false)
      const byHand = yield* Effect.promise(() => runPgbench(directory, writers, false))
      cell.ledger.push(measured.rate)
      cell.cpuMicros.push(measured.cpuMicros)
      cell.pgbench.push(byHand)
      cell.ratio.push(measured.rate / byHand)
      cell.system.push((yield* measureLedger(ledger, writers, true)).rate)
      if (writers === 16) hotRow.push(yield* Effect.promise(() => runPgbench(directory, writers, true)))
    }
  }
  const column = (pick: (cell: Samples) => ReadonlyArray<number>, show: (value: number) => string) =>
    samples.map((cell) => show(median(pick(cell))))
  console.log("")
  row(
    "postings per second",
    writerCounts.map((writers) => `${writers} writer${writers === 1 ? " " : "s"}`.padStart(12))
  )
  row(
    "Ledger.post, guarded -> guarded (PgLedger)",
    column((cell) => cell.ledger, format)
  )
  row(
    "pgbench, the same transaction by hand (-M prepared)",
    column((cell) => cell.pgbench, format)
  )
  row(
    "  Ledger.post / pgbench (median of per-round ratios)",
    column(
      (cell) => cell.ratio,
      (ratio) => `${(ratio * 100).toFixed(0)}%`.padStart(12)
    )
  )
  row(
    "Ledger.post, guarded -> RAIL_CLEARING (one system account)",
    column((cell) => cell.system, format)
  )
  row("pgbench, every credit on one guarded row (the funnel avoided)", [
    ...writerCounts.slice(1).map(() => "".padStart(12)),
    format(median(hotRow))
  ])
  row(
    "  Node CPU per Ledger.post, guarded -> guarded (microseconds)",
    column((cell) => cell.cpuMicros, format)
  )
  const totals = yield* ledger.postedTotals(platformId)
  console.log(
    `\nposted totals of the ledger's platform after the run: ${Array.from(totals, ([currency, total]) => `${currency} ${total}`).join(", ")} (must be 0)`
  )
})

const storage = StoragePostgres.layer.pipe(
  Layer.provideMerge(pgLayer({ url: Redacted.make(databaseUrl), maxConnections: 16, applicationName: "payrail-bench" }))
)

// The throw-away database is dropped (closing what is still connected) however the run ends, Ctrl-C included.
const program = Effect.gen(function* () {
  const admin = yield* PgClient
  yield* Effect.acquireRelease(admin`CREATE DATABASE ${admin(databaseName)}`, () =>
    Effect.orDie(admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`)
  )
  yield* benchmark.pipe(Effect.scoped, Effect.provide(storage))
}).pipe(Effect.scoped, Effect.provide(pgLayer({ url: Redacted.make(serverUrl), maxConnections: 1 })))

const fiber = Effect.runFork(program)
process.once("SIGINT", () => fiber.unsafeInterruptAsFork(fiber.id()))
const exit = await Effect.runPromise(Fiber.await(fiber))
if (Exit.isFailure(exit)) {
  console.error(Cause.pretty(exit.cause))
  process.exitCode = 1
} else {
  // The second half of the ledger bench: page latency of the external-account list at 10,000 and 1,000,000 rows.
  await measurePages(serverUrl).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
}
