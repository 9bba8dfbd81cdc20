import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg, tmpdir } from "node:os"
import path from "node:path"
import { Webhook } from "standardwebhooks"
import * as Cluster from "../http/cluster.js"
import { type CpuProfile, type Share, span, summarize } from "../http/cpuProfile.js"
import { defer, envNumber, runMain, sleep } from "../http/lifecycle.js"
import { effectOpsCount } from "../http/effectOpsCount.js"
import { cpuSeconds, treeCpuSeconds } from "../http/procfs.js"
import { type ReferenceServer, startReference, temporaryDataDir } from "../http/servers.js"
import { readStatements, resetStatements, type StatementStat } from "../http/statements.js"

// Webhook delivery of the reference server on PostgreSQL, to a receiver on loopback in this process that verifies
// every delivery with the `standardwebhooks` library:
// 1. Throughput: a backlog of BENCH_WEBHOOK_EVENTS events (default 10,000) is appended to the outbox in one
//    statement while the server is stopped (the outbox trigger enqueues their delivery jobs in the same statement,
//    as it does for every event); the server then starts, and the figure is deliveries per second from the first
//    arrival to the last. Then a second backlog is appended the same way while the server runs: the same figure for
//    a warm server (one that has been delivering for a while, its code optimized by the JIT), which is what a
//    deployed server is, and what the target is compared with.
// 2. Latency: customers are created through the API at BENCH_WEBHOOK_RATE / 2 a second (default 100, for about 200
//    events/s: each creation records its events) for BENCH_SECONDS (default 20 s). Commit-to-delivery latency is the arrival time
//    less the event's `timestamp`, which the domain stamps just before its unit of work commits (so the figure
//    slightly overstates it).
// Beside each figure: CPU time per delivery of the server, of PostgreSQL (its own cluster only) and of this process
// (the receiver's verification), and the statements per delivery from pg_stat_statements when it is loaded.
// Environment: BENCH_DATABASE_URL (else a cluster of its own), BENCH_JOB_CONCURRENCY (the server's
// PAYRAIL_JOB_CONCURRENCY, default 128 as the server's), BENCH_PG_BIN, BENCH_NODE_FLAGS (more Node options for the server),
// BENCH_WEBHOOK_PROFILE=1 (the server runs under
// `node --cpu-prof`; where the drain's main-thread time went is printed by category, module and function;
// BENCH_WEBHOOK_PROFILE_OUT=<file> keeps the whole .cpuprofile there, for Chrome DevTools), BENCH_WEBHOOK_OPS=1
// (the server runs with the preload `../http/effectOps.mjs`; the operations of Effect's fiber runtime per delivery
// during the warm drain are printed, in all and by the function they ran: a count the machine's speed does not
// move; the counting slows the server, so that run's rates and CPU figures are not the server's).

const backlog = Math.round(envNumber("BENCH_WEBHOOK_EVENTS", 10_000))
const rate = envNumber("BENCH_WEBHOOK_RATE", 200)
const seconds = envNumber("BENCH_SECONDS", 20)
const concurrency = String(Math.round(envNumber("BENCH_JOB_CONCURRENCY", 128)))
const profiling = process.env["BENCH_WEBHOOK_PROFILE"] === "1"
const nodeFlags = (process.env["BENCH_NODE_FLAGS"] ?? "").split(" ").filter((flag) => flag !== "")
const countingOps = process.env["BENCH_WEBHOOK_OPS"] === "1"

interface Arrival {
  readonly id: string
  readonly type: string
  readonly atMs: number
  readonly latencyMs: number
}

const startReceiver = async () => {
  let secret = ""
  let refused = 0
  const arrivals: Array<Arrival> = []
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const atMs = Date.now()
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers[name] = value
      }
      try {
        const payload = new Webhook(secret).verify(Buffer.concat(chunks).toString("utf8"), headers) as {
          id: string
          type: string
          timestamp: string
        }
        arrivals.push({ id: payload.id, type: payload.type, atMs, latencyMs: atMs - Date.parse(payload.timestamp) })
        response.writeHead(200).end()
      } catch {
        refused += 1
        response.writeHead(401).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  defer("webhook receiver", () => new Promise((resolve) => server.close(() => resolve())))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    refused: () => refused,
    trust: (value: string) => {
      secret = value
    }
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

const micros = () => Number(process.hrtime.bigint() / 1000n)

interface Costs {
  readonly serverCpuMs: number
  readonly databaseCpuMs: number | undefined
  readonly receiverCpuMs: number
  readonly statements: ReadonlyArray<StatementStat>
}

// CPU time and statements from now until the returned function is called, per delivery.
const meter = async (database: Cluster.Database, server: ReferenceServer) => {
  await resetStatements(database)
  const serverBefore = cpuSeconds(server.pid)
  const databaseBefore = database.postmasterPid === undefined ? undefined : treeCpuSeconds(database.postmasterPid)
  const receiverBefore = process.cpuUsage()
  return async (deliveries: number): Promise<Costs> => {
    const per = (seconds: number) => (seconds * 1000) / Math.max(1, deliveries)
    const receiver = process.cpuUsage(receiverBefore)
    return {
      serverCpuMs: per(cpuSeconds(server.pid) - serverBefore),
      databaseCpuMs:
        databaseBefore === undefined || database.postmasterPid === undefined
          ? undefined
          : per(treeCpuSeconds(database.postmasterPid) - databaseBefore),
      receiverCpuMs: per((receiver.user + receiver.system) / 1e6),
      statements: await readStatements(database)
    }
  }
}

const describeCosts = (costs: Costs, deliveries: number): string => {
  const top = costs.statements.filter((statement) => statement.toplevel)
  const calls = top.reduce((sum, statement) => sum + statement.calls, 0)
  const execMs = top.reduce((sum, statement) => sum + statement.totalExecMs, 0)
  const lines = [
    `            CPU per delivery: server ${costs.serverCpuMs.toFixed(3)} ms, PostgreSQL ` +
      `${costs.databaseCpuMs?.toFixed(3) ?? "-"} ms, receiver ${costs.receiverCpuMs.toFixed(3)} ms` +
      (costs.statements.length === 0
        ? ""
        : `; ${(calls / deliveries).toFixed(2)} statements and ${(execMs / deliveries).toFixed(3)} ms of execution per delivery`)
  ]
  for (const statement of costs.statements.slice(0, 12)) {
    lines.push(
      `            ${(statement.calls / deliveries).toFixed(3).padStart(7)}  ${statement.toplevel ? "top   " : "nested"}  ` +
        `${(statement.totalExecMs / Math.max(1, statement.calls)).toFixed(3).padStart(7)} ms  ${statement.query.slice(0, 110)}`
    )
  }
  return lines.join("\n")
}

const shares = (title: string, lines: ReadonlyArray<Share>) =>
  [`  ${title}`, ...lines.map((line) => `    ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`)].join("\n")

const waitFor = async (condition: () => boolean, what: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

runMain(async () => {
  const database = await Cluster.open()
  const receiver = await startReceiver()
  const dataDir = await temporaryDataDir("postgres")
  const ops = countingOps ? await effectOpsCount(backlog) : undefined
  const env = { PAYRAIL_JOB_CONCURRENCY: concurrency, ...ops?.env }
  const profileDir = profiling ? await mkdtemp(path.join(tmpdir(), "payrail-bench-webhooks-profile-")) : undefined
  if (profileDir !== undefined) defer("the profile directory", () => rm(profileDir, { recursive: true, force: true }))
  const start = (profile = false) =>
    startReference({
      storage: "postgres",
      databaseUrl: database.url,
      dataDir,
      env,
      nodeFlags: [
        ...nodeFlags,
        ...(ops?.nodeFlags ?? []),
        ...(profile && profileDir !== undefined
          ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=250"]
          : [])
      ]
    })

  // The platform's endpoint is the receiver; its secret is the one the first start issued.
  let server: ReferenceServer = await start()
  const credentials = JSON.parse(await readFile(path.join(dataDir, "sandbox-credentials.json"), "utf8")) as {
    webhookSecret: string
  }
  receiver.trust(credentials.webhookSecret)
  const patched = await fetch(`${server.baseUrl}/2025-10-13/config`, {
    method: "PATCH",
    headers: { authorization: server.authorization, "content-type": "application/json" },
    body: JSON.stringify({ webhookEndpoint: receiver.url })
  })
  if (patched.status !== 200) throw new Error(`PATCH /config answered ${patched.status}`)
  await server.stop()

  // 1. Throughput: drain a backlog, first on a server started with it (cold: its code not optimized yet by the
  // JIT), then a second one appended while it runs (warm: a server that has been delivering for a while).
  const appendBacklog = () =>
    Cluster.psql(
      database.url,
      `INSERT INTO outbox (id, platform_id, type, timestamp, data)
       SELECT 'Webhook:' || gen_random_uuid(), '${server.platformId}', 'BENCH.BACKLOG', now(), jsonb_build_object('n', g)
         FROM generate_series(1, ${backlog}) g`
    )
  const drain = async (label: string, append: () => Promise<unknown>) => {
    receiver.arrivals.length = 0
    await append()
    const costs = await meter(database, server)
    const from = micros()
    await waitFor(() => receiver.arrivals.length >= backlog, `${backlog} deliveries`, 600_000)
    const to = micros()
    const cost = await costs(backlog)
    const drained = receiver.arrivals.slice(0, backlog)
    const first = drained[0]?.atMs ?? 0
    const last = drained.at(-1)?.atMs ?? 0
    const perSecond = backlog / Math.max((last - first) / 1000, 0.001)
    const distinct = new Set(drained.map((arrival) => arrival.id)).size
    const middle = drained[Math.floor(backlog / 2)]?.atMs ?? first
    const secondHalfPerSecond = (backlog - Math.floor(backlog / 2)) / Math.max((last - middle) / 1000, 0.001)
    console.log(
      `throughput  ${label}: ${backlog} queued events delivered in ${((last - first) / 1000).toFixed(2)} s: ` +
        `${perSecond.toFixed(0)} deliveries/s (target ≥ 2,000/s); ${distinct} distinct, ${receiver.refused()} refused\n` +
        `            second half of the drain: ${secondHalfPerSecond.toFixed(0)} deliveries/s\n` +
        describeCosts(cost, backlog)
    )
    return { fromMicros: from, toMicros: to }
  }
  await drain("from a cold start", async () => {
    await appendBacklog()
    server = await start(true)
  })
  // The arrivals of the first drain's last settlements are in; the receiver has nothing in flight.
  ops?.mark(server.pid)
  const { fromMicros: drainFrom, toMicros: drainTo } = await drain("on the warm server", appendBacklog)
  if (ops !== undefined) {
    ops.mark(server.pid)
    console.log("            Effect operations per delivery, by the function they ran:")
    for (const line of (await ops.read(0)).slice(0, 26)) console.log(`              ${line.slice(0, 140)}`)
  }

  // 2. Latency at a steady rate.
  receiver.arrivals.length = 0
  const creates = Math.round((rate / 2) * seconds)
  const intervalMs = 1000 / (rate / 2)
  const latencyCosts = await meter(database, server)
  const began = performance.now()
  const statuses: Array<Promise<number>> = []
  for (let index = 0; index < creates; index++) {
    const due = began + index * intervalMs
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    statuses.push(
      fetch(`${server.baseUrl}/2025-10-13/customers`, {
        method: "POST",
        headers: { authorization: server.authorization, "content-type": "application/json" },
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: `Bench ${index}` })
      }).then((response) => response.status)
    )
  }
  const created = (await Promise.all(statuses)).filter((status) => status === 201).length
  if (created !== creates) throw new Error(`${creates - created} of ${creates} customers were not created`)
  // What the creations recorded: every event of the platform but the backlog.
  const expected = Number(
    (
      await Cluster.psql(
        database.url,
        `SELECT count(*) FROM outbox WHERE platform_id = '${server.platformId}' AND type <> 'BENCH.BACKLOG'`
      )
    ).trim()
  )
  await waitFor(() => receiver.arrivals.length >= expected, `${expected} deliveries`, 120_000)
  const latencyCost = await latencyCosts(expected)
  const latencies = receiver.arrivals.map((arrival) => arrival.latencyMs).sort((a, b) => a - b)
  // The worst latency of each second of the run, to tell a backlog that builds up from a constant delay.
  const startedAt = receiver.arrivals[0]?.atMs ?? 0
  const worstBySecond: Array<number> = []
  for (const arrival of receiver.arrivals) {
    const second = Math.floor((arrival.atMs - startedAt) / 1000)
    worstBySecond[second] = Math.max(worstBySecond[second] ?? 0, arrival.latencyMs)
  }
  await server.stop()

  console.log(`PostgreSQL: ${database.description}; job concurrency ${concurrency}; load ${loadavg()[0]?.toFixed(1)}`)
  console.log(
    `latency     ${expected} events at ${rate}/s for ${seconds} s: commit to delivery p50 ` +
      `${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ` +
      `${(latencies.at(-1) ?? Number.NaN).toFixed(0)} ms (target p99 < 1,000 ms)\n` +
      `            worst latency per second of the run (ms): ${worstBySecond.map((ms) => ms.toFixed(0)).join(" ")}\n` +
      describeCosts(latencyCost, expected)
  )

  if (profileDir !== undefined) {
    // The profile is written when the profiled server exits (it served the drain and the latency run).
    const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"))
    if (file === undefined) throw new Error("the server wrote no .cpuprofile")
    const kept = process.env["BENCH_WEBHOOK_PROFILE_OUT"]
    if (kept !== undefined && kept !== "") await copyFile(path.join(profileDir, file), kept)
    const profile = JSON.parse(await readFile(path.join(profileDir, file), "utf8")) as CpuProfile
    const whole = span(profile)
    const window = { fromMicros: Math.max(drainFrom, whole.fromMicros), toMicros: Math.min(drainTo, whole.toMicros) }
    const summary = summarize(profile, window, 25)
    const busy = summary.samples / Math.max(1, summary.samples + summary.idleSamples)
    console.log(`\nserver main thread during the warm drain: busy ${(busy * 100).toFixed(0)}% of the samples`)
    console.log(shares("self time by category", summary.categories))
    console.log(shares("inclusive time by module", summary.inclusiveModules))
    console.log(shares("self time by file", summary.files))
    console.log(shares("self time by function", summary.selfFunctions))
  }
})
