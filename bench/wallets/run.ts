import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import path from "node:path"
import * as Cluster from "../http/cluster.js"
import { type CpuProfile, type Share, span, summarize, type Window } from "../http/cpuProfile.js"
import { defer, envNumber, runMain } from "../http/lifecycle.js"
import { unique } from "../http/load.js"
import { cpuSeconds, treeCpuSeconds } from "../http/procfs.js"
import { startReference } from "../http/servers.js"
import { perRequest, readStatements, resetStatements } from "../http/statements.js"
import { clientOf } from "../payments/client.js"
import { decodeStamps, runBaseline } from "./baseline.js"
import { type Round, roundLine, statementLines, table } from "./report.js"
import { prepare, revoker, runRetries } from "./retries.js"
import { addThrowawaySessions, seedWallets, walletKeys } from "./seed.js"

// Signed retries through the reference server on PostgreSQL: `DELETE /auth/sessions/{id}` of a throwaway session,
// the retry leg only (its challenge issued and stamped before the run), at BENCH_WALLET_CLIENTS closed loops, next
// to bare node:crypto ECDSA P-256 verification of the same stamps on one thread, in the same run. See README.md.
// Environment: BENCH_SECONDS (per run, default 6), BENCH_ROUNDS (default 3), BENCH_WARMUP_SECONDS (default 1),
// BENCH_WALLET_CLIENTS (default 16), BENCH_WALLETS (default 256), BENCH_DATABASE_URL, BENCH_PG_BIN,
// BENCH_NODE_FLAGS (more Node options for the server), BENCH_WALLETS_PROFILE=1 (the server runs under
// `node --cpu-prof`; where its main thread's time went in the last measured run is printed).

const seconds = envNumber("BENCH_SECONDS", 6)
const rounds = Math.round(envNumber("BENCH_ROUNDS", 3))
const warmUpSeconds = envNumber("BENCH_WARMUP_SECONDS", 1)
const clients = Math.round(envNumber("BENCH_WALLET_CLIENTS", 16))
const walletCount = Math.round(envNumber("BENCH_WALLETS", 256))
const profiling = process.env["BENCH_WALLETS_PROFILE"] === "1"
const nodeFlags = (process.env["BENCH_NODE_FLAGS"] ?? "").split(" ").filter((flag) => flag !== "")
// Prepared retries per run: the rate seen so far times the run's length, with this much to spare.
const spare = 1.3

const shares = (title: string, lines: ReadonlyArray<Share>) =>
  [`  ${title}`, ...lines.map((line) => `    ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`)].join("\n")
const micros = () => Number(process.hrtime.bigint() / 1000n)

const loadAverage = () => loadavg()[0]?.toFixed(2) ?? "?"

runMain(async () => {
  const startedLoad = loadAverage()
  console.log(
    `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), shared by the server, PostgreSQL ` +
      "and the load (this process); the baseline runs on this process's one thread while the server is idle"
  )
  console.log(`1-minute load average at the start: ${startedLoad}`)
  const database = await Cluster.open()
  console.log(database.description)
  const profileDir = profiling ? await mkdtemp(path.join(tmpdir(), "payrail-bench-wallets-profile-")) : undefined
  if (profileDir !== undefined) defer("the profile directory", () => rm(profileDir, { recursive: true, force: true }))
  const server = await startReference({
    storage: "postgres",
    databaseUrl: database.url,
    env: walletKeys(),
    nodeFlags: [
      ...nodeFlags,
      ...(profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=250"])
    ]
  })
  const windows: Array<Window> = []
  const client = clientOf(server, 8)
  defer("the seeding HTTP client", async () => client.close())
  const retries = revoker(server, clients)
  defer("the retries' HTTP client", async () => retries.close())

  const seedStarted = performance.now()
  const wallets = await seedWallets(client, walletCount, unique("wallets"))
  console.log(
    `${wallets.length} wallets, each with a session from an OTP login (${((performance.now() - seedStarted) / 1000).toFixed(1)} s)`
  )
  const ownSessions = wallets.map((wallet) => `'${wallet.sessionId}'`).join(", ")
  // Sessions a run did not get to are revoked before the next run, so every run starts with the sessions it needs.
  const revokeLeftovers = () =>
    Cluster.psql(
      database.url,
      `UPDATE auth_sessions SET revoked_at = now(), record = record || jsonb_build_object('revokedAt',
         to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt',
         to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       WHERE revoked_at IS NULL AND id NOT IN (${ownSessions})`
    )

  // Prepares `count` retries (at least two per wallet): throwaway sessions, their first legs, their stamps.
  const preparePool = async (count: number) => {
    const perWallet = Math.max(2, Math.ceil(count / wallets.length))
    const throwaways = await addThrowawaySessions(database, wallets, perWallet)
    return { perWallet, prepared: await prepare(retries, throwaways, clients) }
  }

  // A first run through a small pool warms the server up and gives the rate that sizes the pools of the rounds.
  const calibration = await preparePool(wallets.length * 4)
  const calibrated = await runRetries(retries, calibration.prepared, clients, 60)
  if (calibrated.retries === 0) throw new Error(`no retry succeeded: ${JSON.stringify(calibrated.failures)}`)
  await revokeLeftovers()
  let rate = calibrated.perSecond
  console.log(
    `calibration: ${calibrated.retries} retries at ${rate.toFixed(0)}/s; ${rounds} rounds of ${seconds} s runs ` +
      `(each after ${warmUpSeconds} s of warm-up), ${clients} clients, ${wallets.length} wallets; LOG_LEVEL=warning\n`
  )

  const results: Array<Round> = []
  for (let round = 0; round < rounds; round++) {
    if (!server.alive()) throw new Error("the reference server is not running any more")
    const preparing = performance.now()
    const pool = await preparePool(Math.ceil(rate * (seconds + warmUpSeconds) * spare))
    console.log(
      `round ${round + 1}: ${pool.prepared.length} retries prepared (${pool.perWallet} sessions per wallet, first ` +
        `legs and stamps) in ${((performance.now() - preparing) / 1000).toFixed(1)} s`
    )
    const stamps = decodeStamps(pool.prepared)

    const baseline = () => {
      runBaseline(stamps, warmUpSeconds)
      return runBaseline(stamps, seconds)
    }
    const measured = async () => {
      const warm = await runRetries(retries, pool.prepared, clients, warmUpSeconds)
      const rest = pool.prepared.slice(warm.sent)
      const sessionsPerWallet = rest.length / wallets.length + 1
      await resetStatements(database)
      const serverBefore = cpuSeconds(server.pid)
      const postmaster = database.postmasterPid
      const databaseBefore = postmaster === undefined ? 0 : treeCpuSeconds(postmaster)
      const clientBefore = process.cpuUsage()
      const from = micros()
      const run = await runRetries(retries, rest, clients, seconds)
      windows.push({ fromMicros: from, toMicros: micros() })
      const clientCpu = process.cpuUsage(clientBefore)
      const per = (cpu: number) => (cpu * 1000) / Math.max(1, run.retries)
      const serverCpuMs = per(cpuSeconds(server.pid) - serverBefore)
      const databaseCpuMs = postmaster === undefined ? undefined : per(treeCpuSeconds(postmaster) - databaseBefore)
      const statements = await readStatements(database)
      const counts = database.statements ? perRequest(statements, run.retries) : undefined
      return {
        run,
        sessionsPerWallet,
        serverCpuMs,
        databaseCpuMs,
        clientCpuMs: per((clientCpu.user + clientCpu.system) / 1e6),
        statements,
        counts
      }
    }
    // The order alternates round by round, so that a trend in the machine's load hits both alike.
    let bare: ReturnType<typeof baseline>
    let retried: Awaited<ReturnType<typeof measured>>
    if (round % 2 === 0) {
      bare = baseline()
      retried = await measured()
    } else {
      retried = await measured()
      bare = baseline()
    }
    await revokeLeftovers()
    rate = Math.max(rate, retried.run.perSecond)
    const result: Round = {
      round,
      retriesPerSecond: retried.run.perSecond,
      retries: retried.run.retries,
      p50Ms: retried.run.p50Ms,
      p99Ms: retried.run.p99Ms,
      failures: retried.run.failures,
      exhausted: retried.run.exhausted,
      baselinePerSecond: bare.perSecond,
      sessionsPerWallet: retried.sessionsPerWallet,
      statementsPerRetry: retried.counts?.perRequest,
      nestedPerRetry: retried.counts?.nestedPerRequest,
      execMsPerRetry: retried.counts?.execMsPerRequest,
      serverCpuMs: retried.serverCpuMs,
      databaseCpuMs: retried.databaseCpuMs,
      clientCpuMs: retried.clientCpuMs,
      statements: retried.statements
    }
    results.push(result)
    console.log(`${roundLine(result)}; load average ${loadAverage()}`)
  }

  console.log(`\nmedians over ${rounds} rounds; % of bare: the median of the per-round ratios`)
  console.log(table(results))
  const last = results.at(-1)
  if (last !== undefined && last.statements.length > 0) {
    console.log("\nstatements per retry (last round): calls per retry, mean time")
    console.log(statementLines(last))
  }
  console.log(`\n1-minute load average: ${startedLoad} at the start, ${loadAverage()} at the end`)

  if (profileDir !== undefined) {
    await server.stop()
    const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"))
    const window = windows.at(-1)
    if (file === undefined || window === undefined) throw new Error("the server wrote no .cpuprofile")
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
    console.log(`\nserver main thread in the last measured run: busy ${(busy * 100).toFixed(0)}% of the samples`)
    console.log(shares("self time by category", summary.categories))
    console.log(shares("inclusive time by module", summary.inclusiveModules))
    console.log(shares("self time by file", summary.files))
    console.log(shares("self time by function", summary.selfFunctions))
  }
})
