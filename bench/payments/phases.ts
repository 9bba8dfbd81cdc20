import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { loadavg, tmpdir } from "node:os"
import path from "node:path"
import * as Cluster from "../http/cluster.js"
import { type CpuProfile, span, summarize, type Window } from "../http/cpuProfile.js"
import { defer, envNumber, runMain } from "../http/lifecycle.js"
import { unique } from "../http/load.js"
import { effectOpsCount } from "../http/effectOpsCount.js"
import { cpuSeconds, treeCpuSeconds } from "../http/procfs.js"
import { startReference } from "../http/servers.js"
import { readStatements, resetStatements, type StatementStat } from "../http/statements.js"
import { type Client, clientOf } from "./client.js"
import { type Accounts, latencies, pairFor, paymentMinor, seedAccounts } from "./scenario.js"
import { awaitSettlement } from "./settlement.js"

// Where a payment's cost lies, phase by phase: the CPU time per request of the server and of PostgreSQL, the
// latency and the statements of each phase of an internal-to-internal payment run on its own, at
// PHASES_CLIENTS concurrent clients (default 16): `GET /quotes/{id}` (the fixed cost of an authenticated request
// and one read), `POST /quotes` alone, then `POST /quotes/{id}/execute` of those quotes, its window lasting until
// the worker settled them all (so it holds the settlement too). Not part of `npm run bench`; run
// `node --import tsx bench/payments/phases.ts`. Environment: PHASES_COUNT (requests per phase, default 2,000),
// PHASES_CLIENTS, BENCH_PG_BIN, BENCH_DATABASE_URL, PHASES_PROFILE=1 (the server runs under `node --cpu-prof`; its
// main thread's samples in each phase are printed by category, file and function; PROFILE_TOP lines per list),
// PHASES_OPS=1 (the server runs with the preload `bench/http/effectOps.mjs`: the operations of Effect's fiber
// runtime per request in each phase, in all and by the function they run, PROFILE_TOP lines; a count that the
// machine's speed does not move, so a change to the request path compares in one run each; the counting slows the
// server, so that run's CPU figures are not the server's).

const count = Math.round(envNumber("PHASES_COUNT", 2_000))
const clients = Math.round(envNumber("PHASES_CLIENTS", 16))
const profiling = process.env["PHASES_PROFILE"] === "1"
const countingOps = process.env["PHASES_OPS"] === "1"
const top = Math.round(envNumber("PROFILE_TOP", 15))
const micros = () => Number(process.hrtime.bigint() / 1000n)

interface Phase {
  readonly label: string
  readonly requests: number
  readonly seconds: number
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly serverCpuMs: number
  readonly databaseCpuMs: number | undefined
  readonly statements: ReadonlyArray<StatementStat>
  readonly window: Window
}

// Runs `send(index)` for index 0..count-1 on `clients` loops; answers the latencies of the 2xx answers.
const drive = async (send: (index: number) => Promise<{ status: number; ms: number }>) => {
  const times: Array<number> = []
  let next = 0
  const loop = async () => {
    for (let index = next++; index < count; index = next++) {
      const answer = await send(index)
      if (answer.status < 200 || answer.status > 299) throw new Error(`request ${index} answered ${answer.status}`)
      times.push(answer.ms)
    }
  }
  await Promise.all(Array.from({ length: clients }, loop))
  return times
}

const quoteBody = (accounts: Accounts, index: number) => {
  const { source, destination } = pairFor(accounts, "spread", index % clients, clients, Math.floor(index / clients))
  return {
    source: { sourceType: "ACCOUNT", accountId: source },
    destination: { destinationType: "ACCOUNT", accountId: destination },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: paymentMinor
  }
}

runMain(async () => {
  console.log(`1-minute load average at the start: ${loadavg()[0]?.toFixed(2)}`)
  const database = await Cluster.open()
  console.log(database.description)
  const profileDir = profiling ? await mkdtemp(path.join(tmpdir(), "payrail-bench-phases-profile-")) : undefined
  if (profileDir !== undefined) defer("the profile directory", () => rm(profileDir, { recursive: true, force: true }))
  const ops = countingOps ? await effectOpsCount(count) : undefined
  const server = await startReference({
    storage: "postgres",
    databaseUrl: database.url,
    nodeFlags: [
      ...(profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=250"]),
      ...(ops?.nodeFlags ?? [])
    ],
    env: ops?.env ?? {}
  })
  const client: Client = clientOf(server, clients)
  defer("the HTTP client", async () => client.close())
  const accounts = await seedAccounts(client, 64, unique("phases"))
  const quoteIds: Array<string> = []
  const transactionIds: Array<string> = []

  const phase = async (label: string, work: () => Promise<Array<number>>, settle = false): Promise<Phase> => {
    await resetStatements(database)
    ops?.mark(server.pid) // starts a count of Effect's operations in the server (effectOps.mjs)
    const serverBefore = cpuSeconds(server.pid)
    const postmaster = database.postmasterPid
    const databaseBefore = postmaster === undefined ? 0 : treeCpuSeconds(postmaster)
    const started = performance.now()
    const from = micros()
    const times = await work()
    const seconds = (performance.now() - started) / 1000
    if (settle) await awaitSettlement(database, transactionIds, 180_000)
    const window = { fromMicros: from, toMicros: micros() }
    ops?.mark(server.pid) // ends it
    const per = (cpu: number) => (cpu * 1000) / times.length
    return {
      label,
      requests: times.length,
      seconds,
      latency: latencies(times),
      serverCpuMs: per(cpuSeconds(server.pid) - serverBefore),
      databaseCpuMs: postmaster === undefined ? undefined : per(treeCpuSeconds(postmaster) - databaseBefore),
      statements: await readStatements(database),
      window
    }
  }

  const quotes = () =>
    drive(async (index) => {
      const answer = await client.send("POST", "/quotes", quoteBody(accounts, index))
      quoteIds[index] = String(answer.body["id"])
      transactionIds[index] = String(answer.body["transactionId"])
      return answer
    })
  // A warm-up of every phase first, so the JIT has compiled their code.
  await quotes()
  await drive((index) => client.send("POST", `/quotes/${quoteIds[index]}/execute`))
  await awaitSettlement(database, transactionIds, 180_000)
  const phases = [
    await phase("GET /quotes/{id}", () => drive((index) => client.send("GET", `/quotes/${quoteIds[index]}`))),
    await phase("POST /quotes", quotes),
    await phase(
      "POST /quotes/{id}/execute + settlement",
      () => drive((index) => client.send("POST", `/quotes/${quoteIds[index]}/execute`)),
      true
    )
  ]
  console.log(`\n${count} requests per phase, ${clients} clients; load average ${loadavg()[0]?.toFixed(2)}\n`)
  console.log(
    `${"phase".padEnd(40)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"node CPU ms".padStart(13)}${"db CPU ms".padStart(11)}${"stmts".padStart(7)}`
  )
  for (const one of phases) {
    const top = one.statements.filter((statement) => statement.toplevel)
    const statements = top.reduce((sum, statement) => sum + statement.calls, 0) / one.requests
    console.log(
      `${one.label.padEnd(40)}${(one.requests / one.seconds).toFixed(0).padStart(8)}${one.latency.p50.toFixed(2).padStart(9)}` +
        `${one.latency.p99.toFixed(2).padStart(9)}${one.serverCpuMs.toFixed(3).padStart(13)}` +
        `${(one.databaseCpuMs?.toFixed(3) ?? "-").padStart(11)}${statements.toFixed(1).padStart(7)}`
    )
  }
  for (const one of phases) {
    console.log(`\n${one.label}: statements per request (top-level), mean time`)
    for (const statement of one.statements.filter((statement) => statement.toplevel).slice(0, 20)) {
      console.log(
        `  ${(statement.calls / one.requests).toFixed(3).padStart(7)}  ${(statement.totalExecMs / Math.max(1, statement.calls)).toFixed(3).padStart(7)} ms  ${statement.query.slice(0, 110)}`
      )
    }
  }
  if (ops !== undefined) {
    for (const [index, one] of phases.entries()) {
      const lines = await ops.read(index)
      console.log(`\n${one.label}: Effect operations per request, by the function they run`)
      for (const line of lines.slice(0, top + 1)) console.log(`  ${line.slice(0, 150)}`)
    }
  }
  console.log(`\n1-minute load average at the end: ${loadavg()[0]?.toFixed(2)}`)
  if (profileDir === undefined) return
  await server.stop()
  const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"))
  if (file === undefined) throw new Error("the server wrote no .cpuprofile")
  const profile = JSON.parse(await readFile(path.join(profileDir, file), "utf8")) as CpuProfile
  const whole = span(profile)
  for (const one of phases) {
    const window = {
      fromMicros: Math.max(one.window.fromMicros, whole.fromMicros),
      toMicros: Math.min(one.window.toMicros, whole.toMicros)
    }
    const summary = summarize(profile, window, top)
    const busy = summary.samples / Math.max(1, summary.samples + summary.idleSamples)
    console.log(
      `\n${one.label}: server main thread busy ${(busy * 100).toFixed(0)}% of ${summary.samples + summary.idleSamples} samples`
    )
    for (const [title, lines] of [
      ["self time by category", summary.categories],
      ["self time by file", summary.files],
      ["self time by function", summary.selfFunctions]
    ] as const) {
      console.log(`  ${title}`)
      for (const line of lines) console.log(`    ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`)
    }
  }
})
