import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import path from "node:path"
import * as Cluster from "./cluster.js"
import { type CpuProfile, type Share, span, summarize, type Window } from "./cpuProfile.js"
import { defer, envNumber, runMain } from "./lifecycle.js"
import { type LoadResult, runLoad, unique } from "./load.js"
import { fundScript, readFunding, runPgbench } from "./pgbench.js"
import { cpuSeconds, treeCpuSeconds } from "./procfs.js"
import { type Endpoint, endpointLabels, endpoints, referenceLoad, seed } from "./scenario.js"
import { startReference } from "./servers.js"
import { readStatements, resetStatements, type StatementStat } from "./statements.js"

// Where the reference server's time goes, on PostgreSQL: the server runs under `node --cpu-prof`, each load in
// turn (after a warm-up), and the samples of each load's window are summarized by module, file and function; the
// statements each request sends come from pg_stat_statements over the same window. Not part of `pnpm bench`; run
// `node --import tsx bench/http/profile.ts`. Environment: PROFILE_LOADS (default getCustomer,fund; any of
// health, getCustomer, listCustomers, createCustomer, fund), PROFILE_SECONDS (default 10), PROFILE_INTERVAL_US
// (sampling interval, default 250), PROFILE_TOP (lines per list, default 20), PROFILE_OUT (a path to keep the
// server's .cpuprofile at), BENCH_DATABASE_URL, BENCH_PG_BIN.

const seconds = envNumber("PROFILE_SECONDS", 10)
const intervalMicros = Math.round(envNumber("PROFILE_INTERVAL_US", 250))
const top = Math.round(envNumber("PROFILE_TOP", 20))
const loads = (process.env["PROFILE_LOADS"] ?? "getCustomer,fund")
  .split(",")
  .map((name) => name.trim())
  .filter((name): name is Endpoint => (endpoints as ReadonlyArray<string>).includes(name))

const micros = () => Number(process.hrtime.bigint() / 1000n)

const shares = (title: string, lines: ReadonlyArray<Share>) =>
  [`  ${title}`, ...lines.map((line) => `    ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`)].join("\n")

const statementList = (statements: ReadonlyArray<StatementStat>, requests: number) =>
  statements
    .map(
      (statement) =>
        `    ${(statement.calls / requests).toFixed(2).padStart(6)}  ${statement.toplevel ? "top   " : "nested"}  ${(statement.totalExecMs / Math.max(1, statement.calls)).toFixed(3).padStart(8)} ms  ${statement.query.slice(0, 150)}`
    )
    .join("\n")

interface Measured {
  readonly endpoint: Endpoint
  readonly window: Window
  readonly load: LoadResult
  readonly serverCpuMs: number
  readonly databaseCpuMs: number | undefined
  readonly statements: ReadonlyArray<StatementStat>
}

const main = async () => {
  console.log(`Node ${process.version}, ${cpus().length} cores; 1-minute load average ${loadavg()[0]?.toFixed(2)}`)
  const database = await Cluster.open()
  console.log(database.description)
  const profileDir = await mkdtemp(path.join(tmpdir(), "payrail-bench-http-profile-"))
  defer("the profile directory", () => rm(profileDir, { recursive: true, force: true }))
  const server = await startReference({
    storage: "postgres",
    databaseUrl: database.url,
    nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${intervalMicros}`]
  })
  const seeded = await seed(server, 100)
  const measured: Array<Measured> = []
  for (const endpoint of loads) {
    const spec = referenceLoad(endpoint, server, seeded)
    await runLoad(server.baseUrl, spec, 2)
    await resetStatements(database)
    const cpuBefore = cpuSeconds(server.pid)
    const databaseBefore = database.postmasterPid === undefined ? undefined : treeCpuSeconds(database.postmasterPid)
    const fromMicros = micros()
    const load = await runLoad(server.baseUrl, spec, seconds)
    const toMicros = micros()
    const requests = Math.max(1, load.requests)
    measured.push({
      endpoint,
      window: { fromMicros, toMicros },
      load,
      serverCpuMs: ((cpuSeconds(server.pid) - cpuBefore) * 1000) / requests,
      databaseCpuMs:
        databaseBefore === undefined || database.postmasterPid === undefined
          ? undefined
          : ((treeCpuSeconds(database.postmasterPid) - databaseBefore) * 1000) / requests,
      statements: await readStatements(database)
    })
  }
  let pgbench: { load: LoadResult; statements: ReadonlyArray<StatementStat> } | undefined
  if (loads.includes("fund")) {
    const script = fundScript(await readFunding(database, `bench-${unique("seed")}`))
    await resetStatements(database)
    const load = await runPgbench(database, script, 16, Math.min(seconds, 5))
    pgbench = { load, statements: await readStatements(database) }
  }
  // The profile is written when the process exits.
  await server.stop()
  const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"))
  if (file === undefined) throw new Error("the server wrote no .cpuprofile")
  const profileFile = path.join(profileDir, file)
  const keep = process.env["PROFILE_OUT"]
  if (keep !== undefined && keep !== "") await copyFile(profileFile, keep)
  const profile = JSON.parse(await readFile(profileFile, "utf8")) as CpuProfile
  const whole = span(profile)
  for (const run of measured) {
    const inside = run.window.fromMicros >= whole.fromMicros && run.window.toMicros <= whole.toMicros
    const summary = summarize(profile, inside ? run.window : whole, top)
    const requests = Math.max(1, run.load.requests)
    const busy = summary.samples / Math.max(1, summary.samples + summary.idleSamples)
    console.log(`\n== ${endpointLabels[run.endpoint]} on PostgreSQL, ${spec(run)}`)
    if (!inside)
      console.log("  (the load window is not inside the profile's clock span: the whole profile is summarized)")
    console.log(
      `  ${Math.round(run.load.perSecond)} req/s, p50 ${run.load.p50Ms.toFixed(2)} ms, p99 ${run.load.p99Ms.toFixed(2)} ms, non-2xx ${run.load.non2xx}; ` +
        `server CPU ${run.serverCpuMs.toFixed(3)} ms/req (all threads); PostgreSQL CPU ${run.databaseCpuMs?.toFixed(3) ?? "-"} ms/req; ` +
        `main thread busy ${(busy * 100).toFixed(0)}% of ${summary.samples + summary.idleSamples} samples`
    )
    console.log(`  statements per request (calls/request, top-level or inside a function, mean execution time):`)
    console.log(statementList(run.statements, requests))
    console.log(shares("self time by category (% of busy main-thread samples)", summary.categories))
    console.log(shares("self time by module", summary.modules))
    console.log(shares("inclusive time by module (module anywhere on the stack)", summary.inclusiveModules))
    console.log(shares("self time by file", summary.files))
    console.log(shares("self time by function", summary.selfFunctions))
  }
  if (pgbench !== undefined) {
    console.log(`\n== pgbench, the same unit of work as one funding, 16 clients`)
    console.log(
      `  ${Math.round(pgbench.load.perSecond)} txn/s, p50 ${pgbench.load.p50Ms.toFixed(2)} ms, p99 ${pgbench.load.p99Ms.toFixed(2)} ms`
    )
    console.log(statementList(pgbench.statements, Math.max(1, pgbench.load.requests)))
  }
  console.log(`\n1-minute load average at the end: ${loadavg()[0]?.toFixed(2)}`)
}

const spec = (run: Measured) => `${run.endpoint === "fund" ? 16 : 50} connections, ${seconds} s`

runMain(main)
