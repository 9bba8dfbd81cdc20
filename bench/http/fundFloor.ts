import { loadavg } from "node:os"
import * as Cluster from "./cluster.js"
import { envNumber, runMain } from "./lifecycle.js"
import { type LoadResult, runLoad, unique } from "./load.js"
import { fundScript, readFunding, runPgbench } from "./pgbench.js"
import { referenceLoad, seed } from "./scenario.js"
import { startReference } from "./servers.js"

// What bounds the fund endpoint: every funding credits one guarded row, so fundings into one account run one at a
// time, each holding that row's lock from its UPDATE to its COMMIT (the commit's WAL flush included). This runs the
// funding's unit of work with pgbench and the endpoint itself at 16 and at 1 client, with the commit flushed and
// not (synchronous_commit=off), and with the ledger call alone, so the lock hold per funding can be read off:
// with 16 clients on one row, requests/s is about 1 / hold. Not part of `pnpm bench`; run
// `node --import tsx bench/http/fundFloor.ts`. Environment: FLOOR_SECONDS (per run, default 5), BENCH_PG_BIN.

const seconds = envNumber("FLOOR_SECONDS", 5)

const line = (label: string, result: LoadResult) =>
  `${label.padEnd(64)}${Math.round(result.perSecond).toLocaleString("en-US").padStart(7)}/s  ` +
  `p50 ${result.p50Ms.toFixed(2).padStart(7)} ms  p99 ${result.p99Ms.toFixed(2).padStart(8)} ms  ` +
  `1/rate ${(1000 / result.perSecond).toFixed(2)} ms${result.non2xx + result.errors > 0 ? `  FAILURES ${result.non2xx + result.errors}` : ""}`

const main = async () => {
  const database = await Cluster.open()
  console.log(database.description)
  console.log(`1-minute load average at the start: ${loadavg()[0]?.toFixed(2)}`)
  const server = await startReference({ storage: "postgres", databaseUrl: database.url })
  const seeded = await seed(server, 10)
  const script = fundScript(await readFunding(database, `bench-${unique("seed")}`))
  const withoutFlush = script.replace("BEGIN;\n", "BEGIN;\nSET LOCAL synchronous_commit = off;\n")
  const ledgerOnly = script
    .split("\n")
    .filter((statement) => !statement.startsWith("SELECT currency") && !statement.startsWith("INSERT INTO outbox"))
    .join("\n")
  const endpoint = referenceLoad("fund", server, seeded)
  const runs: ReadonlyArray<readonly [string, () => Promise<LoadResult>]> = [
    [
      "pgbench, the funding's unit of work, 16 clients (the bench baseline)",
      () => runPgbench(database, script, 16, seconds)
    ],
    ["pgbench, the same, 1 client", () => runPgbench(database, script, 1, seconds)],
    ["pgbench, the same, 16 clients, synchronous_commit=off", () => runPgbench(database, withoutFlush, 16, seconds)],
    [
      "pgbench, the ledger call alone (BEGIN; post; END), 16 clients",
      () => runPgbench(database, ledgerOnly, 16, seconds)
    ],
    ["fund endpoint on PostgreSQL, 16 connections", () => runLoad(server.baseUrl, endpoint, seconds)],
    [
      "fund endpoint on PostgreSQL, 1 connection",
      () => runLoad(server.baseUrl, { ...endpoint, connections: 1 }, seconds)
    ]
  ]
  await runLoad(server.baseUrl, endpoint, 2)
  for (const [label, run] of runs) console.log(line(label, await run()))
  console.log(`1-minute load average at the end: ${loadavg()[0]?.toFixed(2)}`)
}

runMain(main)
