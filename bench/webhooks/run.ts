import { readFile } from "node:fs/promises"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import path from "node:path"
import { Webhook } from "standardwebhooks"
import * as Cluster from "../http/cluster.js"
import { defer, envNumber, runMain, sleep } from "../http/lifecycle.js"
import { type ReferenceServer, startReference, temporaryDataDir } from "../http/servers.js"

// Webhook delivery of the reference server on PostgreSQL, to a receiver on loopback in this process that verifies
// every delivery with the `standardwebhooks` library:
// 1. Throughput: a backlog of BENCH_WEBHOOK_EVENTS events (default 10,000) is appended to the outbox in one
//    statement while the server is stopped (the outbox trigger enqueues their delivery jobs in the same statement,
//    as it does for every event); the server then starts, and the figure is deliveries per second from the first
//    arrival to the last.
// 2. Latency: customers are created through the API at BENCH_WEBHOOK_RATE / 2 a second (default 100, for about 200
//    events/s: each creation records its events) for BENCH_SECONDS (default 20 s). Commit-to-delivery latency is the arrival time
//    less the event's `timestamp`, which the domain stamps just before its unit of work commits (so the figure
//    slightly overstates it).
// Environment: BENCH_DATABASE_URL (else a cluster of its own), BENCH_JOB_CONCURRENCY (the server's
// PAYRAIL_JOB_CONCURRENCY, default 64), BENCH_PG_BIN.

const backlog = Math.round(envNumber("BENCH_WEBHOOK_EVENTS", 10_000))
const rate = envNumber("BENCH_WEBHOOK_RATE", 200)
const seconds = envNumber("BENCH_SECONDS", 20)
const concurrency = String(Math.round(envNumber("BENCH_JOB_CONCURRENCY", 64)))

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
  const env = { PAYRAIL_JOB_CONCURRENCY: concurrency }
  const start = () => startReference({ storage: "postgres", databaseUrl: database.url, dataDir, env })

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

  // 1. Throughput: drain a backlog.
  await Cluster.psql(
    database.url,
    `INSERT INTO outbox (id, platform_id, type, timestamp, data)
     SELECT 'Webhook:' || gen_random_uuid(), '${server.platformId}', 'BENCH.BACKLOG', now(), jsonb_build_object('n', g)
       FROM generate_series(1, ${backlog}) g`
  )
  server = await start()
  await waitFor(() => receiver.arrivals.length >= backlog, `${backlog} deliveries`, 600_000)
  const drained = receiver.arrivals.slice(0, backlog)
  const first = drained[0]?.atMs ?? 0
  const last = drained.at(-1)?.atMs ?? 0
  const perSecond = backlog / Math.max((last - first) / 1000, 0.001)
  const distinct = new Set(drained.map((arrival) => arrival.id)).size

  console.log(
    `throughput  ${backlog} queued events delivered in ${((last - first) / 1000).toFixed(2)} s: ` +
      `${perSecond.toFixed(0)} deliveries/s (target ≥ 2,000/s); ${distinct} distinct, ${receiver.refused()} refused`
  )

  // 2. Latency at a steady rate.
  receiver.arrivals.length = 0
  const creates = Math.round((rate / 2) * seconds)
  const intervalMs = 1000 / (rate / 2)
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
  const latencies = receiver.arrivals.map((arrival) => arrival.latencyMs).sort((a, b) => a - b)
  await server.stop()

  console.log(`PostgreSQL: ${database.description}; job concurrency ${concurrency}; load ${loadavg()[0]?.toFixed(1)}`)
  console.log(
    `latency     ${expected} events at ${rate}/s for ${seconds} s: commit to delivery p50 ` +
      `${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ` +
      `${(latencies.at(-1) ?? Number.NaN).toFixed(0)} ms (target p99 < 1,000 ms)`
  )
})
