import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import path from "node:path"
import * as Cluster from "../http/cluster.js"
import { type CpuProfile, type Share, span, summarize, type Window } from "../http/cpuProfile.js"
import { defer, envNumber, runMain } from "../http/lifecycle.js"
import { unique } from "../http/load.js"
import { runPgbench } from "../http/pgbench.js"
import { cpuSeconds, treeCpuSeconds } from "../http/procfs.js"
import { startReference } from "../http/servers.js"
import { perRequest, readStatements, resetStatements } from "../http/statements.js"
import { clientOf } from "./client.js"
import { paymentScript, readPayment } from "./pgbench.js"
import { runLine, type Sample, statementLines, type Subject, table, variantLabels } from "./report.js"
import { type Accounts, runPayments, seedAccounts, type Variant } from "./scenario.js"
import { awaitSettlement } from "./settlement.js"

// Payments through the reference server on PostgreSQL: internal-to-internal quote + execute over HTTP at 16
// concurrent clients (each: POST /quotes, then POST /quotes/{id}/execute, then again), between funded USD internal
// accounts of distinct customers, next to pgbench running the same units of work (bench/payments/pgbench.ts) on
// the same database in the same run. Two variants: the clients spread over BENCH_PAYMENT_PAIRS account pairs (each
// client its own pairs, so no row is shared), and every client paying from one hot source account. Every executed
// payment must settle (the server's job worker completes it); settle latency is from the execute's unit of work to
// `settledAt`. Baseline and server run back to back in rounds, the order reversed every other round.
// Environment: BENCH_SECONDS (per run, default 6), BENCH_ROUNDS (default 3), BENCH_WARMUP_SECONDS (default 1),
// BENCH_PAYMENT_CLIENTS (default 16), BENCH_PAYMENT_PAIRS (default 64), BENCH_JOB_CONCURRENCY (the server's
// PAYRAIL_JOB_CONCURRENCY, default 64), BENCH_DATABASE_URL (a PostgreSQL server instead of a cluster of its own),
// BENCH_PG_BIN, BENCH_NODE_FLAGS (more Node options for the server), BENCH_PAYMENTS_PROFILE=1 (the server runs
// under `node --cpu-prof`; where its main thread's time went in its last spread run is printed),
// BENCH_PAYMENTS_PROFILE_OUT=<file> (keeps the whole .cpuprofile there, for Chrome DevTools).

const seconds = envNumber("BENCH_SECONDS", 6)
const rounds = Math.round(envNumber("BENCH_ROUNDS", 3))
const warmUpSeconds = envNumber("BENCH_WARMUP_SECONDS", 1)
const clients = Math.round(envNumber("BENCH_PAYMENT_CLIENTS", 16))
const pairs = Math.round(envNumber("BENCH_PAYMENT_PAIRS", 64))
const concurrency = String(Math.round(envNumber("BENCH_JOB_CONCURRENCY", 64)))
const profiling = process.env["BENCH_PAYMENTS_PROFILE"] === "1"
const nodeFlags = (process.env["BENCH_NODE_FLAGS"] ?? "").split(" ").filter((flag) => flag !== "")
const settleTimeoutMs = 180_000

const loadAverage = () => loadavg()[0]?.toFixed(2) ?? "?"
const micros = () => Number(process.hrtime.bigint() / 1000n)

const shares = (title: string, lines: ReadonlyArray<Share>) =>
  [`  ${title}`, ...lines.map((line) => `    ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`)].join("\n")

runMain(async () => {
  const startedLoad = loadAverage()
  console.log(
    `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), shared by the server, PostgreSQL, pgbench and the load`
  )
  console.log(`1-minute load average at the start: ${startedLoad}`)
  const database = await Cluster.open()
  console.log(database.description)
  const profileDir = profiling ? await mkdtemp(path.join(tmpdir(), "payrail-bench-payments-profile-")) : undefined
  if (profileDir !== undefined) defer("the profile directory", () => rm(profileDir, { recursive: true, force: true }))
  const server = await startReference({
    storage: "postgres",
    databaseUrl: database.url,
    env: { PAYRAIL_JOB_CONCURRENCY: concurrency },
    nodeFlags: [
      ...nodeFlags,
      ...(profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=250"])
    ]
  })
  const client = clientOf(server, clients)
  defer("the HTTP client", async () => client.close())
  const accounts: Accounts = await seedAccounts(client, pairs, unique("payments"))
  // A first run warms the server up and leaves a settled payment whose rows pgbench copies.
  const first = await runPayments(client, accounts, "spread", clients, warmUpSeconds)
  await awaitSettlement(database, first.transactionIds, settleTimeoutMs)
  const shape = await readPayment(database, first.transactionIds[0] ?? "")
  const scripts: Record<Exclude<Subject, "server">, Record<Variant, string>> = {
    pgbench: {
      spread: paymentScript(shape, accounts, "spread", clients),
      hot: paymentScript(shape, accounts, "hot", clients)
    }
  }
  console.log(
    `${rounds} interleaved rounds of ${seconds} s runs (each after ${warmUpSeconds} s of warm-up); ${clients} clients; ` +
      `${accounts.pairs.length} account pairs; job concurrency ${concurrency}; LOG_LEVEL=warning\n`
  )

  const serverWindows: Array<Window> = []
  const measure = async (variant: Variant, subject: Subject, round: number): Promise<Sample> => {
    if (!server.alive()) throw new Error("the reference server is not running any more")
    if (subject === "server") {
      const warm = await runPayments(client, accounts, variant, clients, warmUpSeconds)
      await awaitSettlement(database, warm.transactionIds, settleTimeoutMs)
    } else {
      await runPgbench(database, scripts[subject][variant], clients, warmUpSeconds)
    }
    await resetStatements(database)
    const serverBefore = cpuSeconds(server.pid)
    const postmaster = database.postmasterPid
    const databaseBefore = postmaster === undefined ? 0 : treeCpuSeconds(postmaster)
    const clientBefore = process.cpuUsage()
    const from = micros()
    const common = { variant, subject, round }
    let sample: Omit<Sample, "statementsPerPayment" | "nestedPerPayment" | "execMsPerPayment" | "statements">
    if (subject === "server") {
      const run = await runPayments(client, accounts, variant, clients, seconds)
      if (variant === "spread") serverWindows.push({ fromMicros: from, toMicros: micros() })
      const clientCpu = process.cpuUsage(clientBefore)
      // The window of CPU and statements runs until every payment settled: the settlement is part of the work.
      const settlement = await awaitSettlement(database, run.transactionIds, settleTimeoutMs)
      const per = (cpu: number) => (cpu * 1000) / Math.max(1, run.payments)
      sample = {
        ...common,
        payments: run.payments,
        perSecond: run.perSecond,
        latencyMs: run.paymentMs,
        executeMs: run.executeMs,
        failures: Object.values(run.failures).reduce((sum, count) => sum + count, 0),
        serverCpuMs: per(cpuSeconds(server.pid) - serverBefore),
        databaseCpuMs: postmaster === undefined ? undefined : per(treeCpuSeconds(postmaster) - databaseBefore),
        clientCpuMs: per((clientCpu.user + clientCpu.system) / 1e6),
        settlement
      }
      if (run.payments === 0 || sample.failures > 0) console.log(`  failures: ${JSON.stringify(run.failures)}`)
    } else {
      const run = await runPgbench(database, scripts[subject][variant], clients, seconds)
      const per = (cpu: number) => (cpu * 1000) / Math.max(1, run.requests)
      sample = {
        ...common,
        payments: run.requests,
        perSecond: run.perSecond,
        latencyMs: { p50: run.p50Ms, p99: run.p99Ms },
        executeMs: undefined,
        failures: run.non2xx,
        serverCpuMs: undefined,
        databaseCpuMs: postmaster === undefined ? undefined : per(treeCpuSeconds(postmaster) - databaseBefore),
        clientCpuMs: undefined,
        settlement: undefined
      }
    }
    const statements = await readStatements(database)
    const counts = database.statements ? perRequest(statements, sample.payments) : undefined
    return {
      ...sample,
      statementsPerPayment: counts?.perRequest,
      nestedPerPayment: counts?.nestedPerRequest,
      execMsPerPayment: counts?.execMsPerRequest,
      statements
    }
  }

  const samples: Array<Sample> = []
  const order: ReadonlyArray<Subject> = ["pgbench", "server"]
  for (let round = 0; round < rounds; round++) {
    for (const variant of ["spread", "hot"] as const) {
      for (const subject of round % 2 === 0 ? order : [...order].reverse()) {
        const sample = await measure(variant, subject, round)
        samples.push(sample)
        console.log(runLine(sample))
      }
    }
    console.log(`after round ${round + 1}: load average ${loadAverage()}`)
  }

  console.log(`\nmedians over ${rounds} rounds; % of base: the median of per-round ratios to the pgbench run beside it`)
  console.log("pay/s, p50, p99: payments per second and the latency of one payment (quote + execute over HTTP; one")
  console.log("  script transaction for pgbench); exec p99: of the execute request alone")
  console.log(
    "stmts/nested: statements per payment, top-level and inside functions (pg_stat_statements), for the server"
  )
  console.log("  including its worker's settlement; db exec ms: PostgreSQL's execution time per payment")
  console.log("node/db/load CPU ms: CPU per payment of the server (all threads), PostgreSQL (postmaster and backends)")
  console.log("  and the HTTP clients (this process); the server's window runs until every payment settled")
  console.log(
    "settle p50/p99: from the execute's unit of work to the transaction's settledAt (the worker in the server)\n"
  )
  console.log(table(samples))
  for (const variant of ["spread", "hot"] as const) {
    for (const subject of ["server", "pgbench"] as const) {
      const last = samples.filter((sample) => sample.variant === variant && sample.subject === subject).at(-1)
      if (last === undefined || last.statements.length === 0) continue
      console.log(`\nstatements per payment, ${subject}, ${variantLabels[variant]} (last round): calls, mean time`)
      console.log(statementLines(last))
    }
  }
  console.log(`\n1-minute load average: ${startedLoad} at the start, ${loadAverage()} at the end`)

  if (profileDir !== undefined) {
    await server.stop()
    const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"))
    const window = serverWindows.at(-1)
    if (file === undefined || window === undefined) throw new Error("the server wrote no .cpuprofile")
    const kept = process.env["BENCH_PAYMENTS_PROFILE_OUT"]
    if (kept !== undefined && kept !== "") await copyFile(path.join(profileDir, file), kept)
    const profile = JSON.parse(await readFile(path.join(profileDir, file), "utf8")) as CpuProfile
    const whole = span(profile)
    const summary = summarize(
      profile,
      {
        fromMicros: Math.max(window.fromMicros, whole.fromMicros),
        toMicros: Math.min(window.toMicros, whole.toMicros)
      },
      25
    )
    const busy = summary.samples / Math.max(1, summary.samples + summary.idleSamples)
    console.log(`\nserver main thread in its last spread run: busy ${(busy * 100).toFixed(0)}% of the samples`)
    console.log(shares("self time by category", summary.categories))
    console.log(shares("inclusive time by module", summary.inclusiveModules))
    console.log(shares("self time by file", summary.files))
    console.log(shares("self time by function", summary.selfFunctions))
  }
})
