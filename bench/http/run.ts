import { cpus, loadavg } from "node:os"
import * as Cluster from "./cluster.js"
import { envNumber, runMain } from "./lifecycle.js"
import { type LoadResult, runLoad, unique } from "./load.js"
import { fundStatementScript, readFunding, runPgbench } from "./pgbench.js"
import { cpuSeconds, rssMb, treeCpuSeconds } from "./procfs.js"
import { baselineOf, type MemoryTrace, memoryReport, runLine, type Sample, type Subject, table } from "./report.js"
import { type Endpoint, endpoints, rawLoad, referenceLoad, type Seeded, seed } from "./scenario.js"
import {
  type ReferenceServer,
  runtimeFromEnv,
  type ServerProcess,
  startRaw,
  startReference,
  temporaryDataDir
} from "./servers.js"
import { perRequest, readStatements, resetStatements } from "./statements.js"

// Requests per second, p50 and p99 of the reference server (packages/server, `serve`) on PostgreSQL and on PGlite,
// each next to its baseline: raw node:http answering 300 bytes of JSON for the HTTP endpoints, and pgbench running
// the same unit of work as one sandbox funding into the same hot account for the fund endpoint. Every endpoint is
// measured baseline and servers back to back, in rounds (the order reversed every other round), so that load from
// other processes on the machine hits all of them alike. Statements per request come from pg_stat_statements
// (reset before each PostgreSQL run), CPU per request and resident memory from /proc. Environment:
//   BENCH_SECONDS (per run, default 6), BENCH_ROUNDS (default 3), BENCH_WARMUP_SECONDS (before each run, default 1),
//   BENCH_CUSTOMERS (seeded per server, default 100), BENCH_DATABASE_URL (use that PostgreSQL server instead of
//   starting a cluster; a database is created and dropped in it), BENCH_PG_BIN (PostgreSQL's bin directory),
//   BENCH_STORAGES (postgres,pglite by default; for example `postgres` alone), BENCH_ENDPOINTS (all by default; any of
//   health, getCustomer, listCustomers, createCustomer, fund, comma-separated), BENCH_RUNTIME (`compiled`, as
//   `npm start` runs the server, by default; `tsx`), BENCH_PGLITE_DIR (`fresh` by default: the PGlite server starts
//   on a new data directory; `existing`: on one a first server start created and stopped), BENCH_NODE_FLAGS (Node
//   options for the reference servers, space-separated, for example `--max-old-space-size=128`).

const seconds = envNumber("BENCH_SECONDS", 6)
const rounds = Math.round(envNumber("BENCH_ROUNDS", 3))
const warmUpSeconds = envNumber("BENCH_WARMUP_SECONDS", 1)
const customers = Math.round(envNumber("BENCH_CUSTOMERS", 100))
const storages = (process.env["BENCH_STORAGES"] ?? "postgres,pglite")
  .split(",")
  .map((name) => name.trim())
  .filter((name): name is "postgres" | "pglite" => name === "postgres" || name === "pglite")
const measured = (process.env["BENCH_ENDPOINTS"] ?? endpoints.join(","))
  .split(",")
  .map((name) => name.trim())
  .filter((name): name is Endpoint => (endpoints as ReadonlyArray<string>).includes(name))
const fundClients = 16
const runtime = runtimeFromEnv()
const nodeFlags = (process.env["BENCH_NODE_FLAGS"] ?? "").split(" ").filter((flag) => flag !== "")
const pgliteDir = process.env["BENCH_PGLITE_DIR"] ?? "fresh"
if (pgliteDir !== "fresh" && pgliteDir !== "existing")
  throw new Error(`BENCH_PGLITE_DIR must be fresh or existing, not ${pgliteDir}`)

// Starts the reference server on `storage` as the environment says; on PGlite with BENCH_PGLITE_DIR=existing, after
// a first server has created the database in the data directory and stopped.
const startServer = async (storage: "postgres" | "pglite", databaseUrl: string): Promise<ReferenceServer> => {
  if (storage === "postgres") return startReference({ storage, databaseUrl, runtime, nodeFlags })
  if (pgliteDir === "fresh") return startReference({ storage, runtime, nodeFlags })
  const dataDir = await temporaryDataDir(storage)
  await (await startReference({ storage, runtime, dataDir })).stop()
  return startReference({ storage, runtime, dataDir, nodeFlags })
}

interface Subjects {
  readonly database: Cluster.Database
  readonly raw: ServerProcess
  readonly servers: ReadonlyArray<{ readonly server: ReferenceServer; readonly seeded: Seeded }>
  readonly fundScript: string
}

const loadAverage = () => loadavg()[0]?.toFixed(2) ?? "?"

// One run of `subject` on `endpoint`: a warm-up, then the measured run with statement counts and CPU times.
const measure = async (subjects: Subjects, endpoint: Endpoint, subject: Subject, round: number): Promise<Sample> => {
  const { database } = subjects
  const target = subjects.servers.find(({ server }) => server.storage === subject)
  const countsStatements = subject === "postgres" || subject === "pgbench"
  const run = (duration: number): Promise<LoadResult> => {
    if (subject === "pgbench") return runPgbench(database, subjects.fundScript, fundClients, duration)
    if (subject === "raw") return runLoad(subjects.raw.baseUrl, rawLoad(endpoint), duration)
    if (target === undefined) throw new Error(`no ${subject} server`)
    return runLoad(target.server.baseUrl, referenceLoad(endpoint, target.server, target.seeded), duration)
  }
  const running = subject === "raw" ? subjects.raw : target?.server
  if (running !== undefined && !running.alive()) throw new Error(`the ${running.label} is not running any more`)
  await run(warmUpSeconds)
  if (countsStatements) await resetStatements(database)
  const pid = subject === "raw" ? subjects.raw.pid : target?.server.pid
  const serverBefore = pid === undefined ? 0 : cpuSeconds(pid)
  const postmaster = database.postmasterPid
  const databaseBefore = postmaster === undefined ? 0 : treeCpuSeconds(postmaster)
  const clientBefore = process.cpuUsage()
  const load = await run(seconds)
  const client = process.cpuUsage(clientBefore)
  const serverCpu = pid === undefined ? undefined : cpuSeconds(pid) - serverBefore
  const databaseCpu =
    postmaster === undefined || subject === "raw" || subject === "pglite"
      ? undefined
      : treeCpuSeconds(postmaster) - databaseBefore
  const requests = Math.max(1, load.requests)
  return {
    endpoint,
    subject,
    round,
    load,
    statements:
      countsStatements && database.statements ? perRequest(await readStatements(database), load.requests) : undefined,
    serverCpuMs: serverCpu === undefined ? undefined : (serverCpu * 1000) / requests,
    databaseCpuMs: databaseCpu === undefined ? undefined : (databaseCpu * 1000) / requests,
    clientCpuMs: subject === "pgbench" ? undefined : (client.user + client.system) / 1000 / requests
  }
}

const main = async () => {
  const started = loadAverage()
  console.log(
    `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), shared by the servers, PostgreSQL, pgbench and autocannon`
  )
  console.log(`1-minute load average at the start: ${started}`)
  console.log(
    runtime === "compiled"
      ? "the reference servers run compiled, as npm start runs them (tsc -b, --conditions=payrail-compiled dist/src/bin.js)"
      : "the reference servers run their TypeScript sources through tsx (BENCH_RUNTIME=tsx)"
  )
  if (nodeFlags.length > 0) console.log(`Node options of the reference servers: ${nodeFlags.join(" ")}`)
  const database = await Cluster.open()
  console.log(database.description)
  if (!database.statements) console.log("pg_stat_statements is not loaded on that server: no statement counts")
  const raw = await startRaw()
  const servers: Array<{ server: ReferenceServer; seeded: Seeded }> = []
  const memory: Array<{ server: ReferenceServer; trace: MemoryTrace & { afterRoundMb: Array<number> } }> = []
  for (const storage of storages) {
    const server = await startServer(storage, database.url)
    const note = storage === "pglite" ? `${pgliteDir} data directory` : undefined
    memory.push({
      server,
      trace: { storage, ...(note === undefined ? {} : { note }), afterStartMb: rssMb(server.pid), afterRoundMb: [] }
    })
    servers.push({ server, seeded: await seed(server, customers) })
  }
  const onPostgres = servers.find(({ server }) => server.storage === "postgres")
  const shape = onPostgres === undefined ? undefined : await readFunding(database, `bench-${unique("seed")}`)
  const subjects: Subjects = {
    database,
    raw,
    servers,
    fundScript: shape === undefined ? "" : fundStatementScript(shape)
  }
  console.log(
    `${rounds} interleaved rounds of ${seconds} s runs (each after ${warmUpSeconds} s of warm-up); 50 connections, 16 for funding; ` +
      `LOG_LEVEL=warning; ${customers} customers seeded per server\n`
  )
  const order: ReadonlyArray<Subject> = storages
  const samples: Array<Sample> = []
  for (let round = 0; round < rounds; round++) {
    for (const endpoint of measured) {
      const baseline = baselineOf(endpoint)
      const set = baseline === "pgbench" && shape === undefined ? order : [baseline, ...order]
      for (const subject of round % 2 === 0 ? set : [...set].reverse()) {
        const sample = await measure(subjects, endpoint, subject, round)
        samples.push(sample)
        console.log(runLine(sample))
      }
    }
    for (const { server, trace } of memory) trace.afterRoundMb.push(rssMb(server.pid))
    console.log(`after round ${round + 1}: load average ${loadAverage()}`)
  }
  console.log(
    `\nmedians over ${rounds} rounds; % of base is the median of per-round ratios to the baseline run beside it`
  )
  console.log(
    "stmts/req: top-level statements per request (pg_stat_statements); nested: statements run inside functions;"
  )
  console.log("  (pgbench runs the funding's one statement as the endpoint does, in its own transaction)")
  console.log(
    "db exec ms: PostgreSQL's execution time per request, lock waits included; node/db CPU ms: CPU time per request"
  )
  console.log(
    "  of the server process (all threads) / of PostgreSQL (postmaster and backends); load CPU ms: of autocannon (this"
  )
  console.log("  process); non-2xx/err: non-2xx responses / connection errors and timeouts, summed over rounds")
  console.log("")
  console.log(table(samples, order))
  console.log("")
  console.log(memoryReport(memory.map(({ trace }) => trace)))
  console.log(`\n1-minute load average: ${started} at the start, ${loadAverage()} at the end`)
}

runMain(main)
