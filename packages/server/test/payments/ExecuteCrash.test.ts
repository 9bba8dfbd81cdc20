import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Ledger, Platform } from "@payrail/core"
import { StoragePostgres } from "@payrail/storage-postgres"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../ServerProcess.js"
import { createTemporaryDatabase } from "../TemporaryDatabase.js"

const api = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const pairs = 8
const clients = 16
const fundingMinor = 1_000_000
const paymentMinor = 100
// The kill comes once this many executes have answered 2xx, at a moment when executes are in flight.
const executedBeforeKill = 40

type Json = Record<string, unknown>

const send = async (server: RunningServer, method: string, path: string, body?: unknown, key?: string) => {
  const response = await fetch(`${server.baseUrl}${api}${path}`, {
    method,
    headers: {
      authorization: server.auth,
      "content-type": "application/json",
      ...(key === undefined ? {} : { "idempotency-key": key })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Json }
}

const expectOk = async (server: RunningServer, method: string, path: string, body?: unknown, key?: string) => {
  const answer = await send(server, method, path, body, key)
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

const usdAccountOf = async (server: RunningServer, fullName: string) => {
  const customer = await expectOk(server, "POST", "/customers", { customerType: "INDIVIDUAL", fullName })
  const accounts = await expectOk(server, "GET", `/internal-accounts?customerId=${String(customer["id"])}`)
  const usd = (accounts["data"] as Array<Json>).find(
    (account) =>
      account["type"] !== "EMBEDDED_WALLET" &&
      (account["balance"] as { currency: { code: string } }).currency.code === "USD"
  )
  return String(usd?.["id"])
}

const waitUntil = async (condition: () => Promise<boolean>, what: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** An execute the burst sent: its quote, its transaction, and the status it answered (0: the connection broke). */
interface Sent {
  readonly quoteId: string
  readonly transactionId: string
  readonly status: number
}

describe.skipIf(databaseUrl === undefined)("quote executions across a SIGKILL (DATABASE_URL)", () => {
  it("a server killed mid-burst and restarted settles every acknowledged execute once and leaves the ledger whole", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "execute_crash")
    cleanups.push(database.drop)
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-execute-crash-"))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    // A short lease, so the settlement jobs the killed server held are run again within seconds.
    const env = {
      DATABASE_URL: database.url,
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_JOB_LEASE_SECONDS: "2",
      PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0"
    }
    const first = await startServer(env)
    cleanups.push(async () => first.kill())
    const platformId = Platform.PlatformId.make(/Sandbox platform\s+(\S+)/.exec(first.output())?.[1] ?? "")

    const accounts = await Promise.all(
      Array.from({ length: pairs }, async (_, index) => {
        const source = await usdAccountOf(first, `Payer ${index}`)
        const destination = await usdAccountOf(first, `Payee ${index}`)
        await expectOk(
          first,
          "POST",
          `/sandbox/internal-accounts/${source}/fund`,
          { amount: fundingMinor },
          `fund-${index}`
        )
        return { source, destination }
      })
    )

    // The burst: each client quotes and executes in a loop until the server stops answering.
    const sent: Array<Sent> = []
    let executing = 0
    const client = async (index: number) => {
      for (let turn = 0; ; turn++) {
        const pair = accounts[(index + turn) % pairs]!
        const quoted = await send(first, "POST", "/quotes", {
          source: { sourceType: "ACCOUNT", accountId: pair.source },
          destination: { destinationType: "ACCOUNT", accountId: pair.destination },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: paymentMinor
        }).catch(() => undefined)
        if (quoted === undefined) return
        expect(quoted.status).toBe(201)
        const quoteId = String(quoted.body["id"])
        const transactionId = String(quoted.body["transactionId"])
        executing++
        const executed = await send(first, "POST", `/quotes/${quoteId}/execute`).catch(() => undefined)
        executing--
        sent.push({ quoteId, transactionId, status: executed?.status ?? 0 })
        if (executed === undefined) return
        expect(executed.status).toBe(200)
      }
    }
    const burst = Promise.all(Array.from({ length: clients }, (_, index) => client(index)))
    await waitUntil(
      async () => executing >= 4 && sent.filter((one) => one.status === 200).length >= executedBeforeKill,
      "the burst"
    )
    first.kill()
    await first.exited
    await burst
    const acknowledged = sent.filter((one) => one.status === 200)
    // Some executes were under way when the process died.
    expect(sent.some((one) => one.status === 0)).toBe(true)

    const storage = Layer.merge(
      StoragePostgres.layerPostgres(Redacted.make(database.url), {
        listenForCredentialChanges: false,
        maxConnections: 2
      }),
      PgClient.layer({ url: Redacted.make(database.url), maxConnections: 1 })
    )
    const runtime = ManagedRuntime.make(storage)
    cleanups.push(() => runtime.dispose())
    const query = <A extends object>(statement: string, ...parameters: ReadonlyArray<unknown>) =>
      runtime.runPromise(
        Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<A>(statement, parameters as Array<never>))
      )

    // As the kill left it: a quote in PROCESSING has its settlement job, or its transaction has already ended.
    const stranded = await query<{ id: string }>(
      `SELECT q.id FROM quotes q JOIN transactions t ON t.id = q.record->>'transactionId'
       WHERE q.platform_id = $1 AND q.status = 'PROCESSING'
         AND t.status NOT IN ('COMPLETED', 'FAILED', 'EXPIRED', 'REJECTED', 'REFUNDED')
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'payments.settle' AND j.status IN ('PENDING', 'RUNNING')
           AND j.payload->>'transactionId' = t.id)`,
      platformId
    )
    expect(stranded).toEqual([])
    const [atKill] = await query<{ processing: string; running: string }>(
      `SELECT (SELECT count(*) FROM quotes WHERE platform_id = $1 AND status = 'PROCESSING') AS processing,
         (SELECT count(*) FROM jobs WHERE kind = 'payments.settle' AND status = 'RUNNING') AS running`,
      platformId
    )

    const restarted = await startServer(env)
    cleanups.push(async () => restarted.kill())
    const unsettled = async () =>
      (
        await query<{ n: string }>(
          `SELECT count(*) AS n FROM quotes WHERE platform_id = $1 AND status = 'PROCESSING'`,
          platformId
        )
      )[0]?.n
    await waitUntil(async () => (await unsettled()) === "0", "the worker to settle every executed quote")

    // Every acknowledged execute: one transaction, COMPLETED, one posted posting.
    const settled = await query<{ quote_id: string; status: string; transactions: string; postings: string }>(
      `SELECT q.id AS quote_id, q.status,
         (SELECT count(*) FROM transactions t WHERE t.platform_id = q.platform_id AND t.record->>'quoteId' = q.id
            AND t.status = 'COMPLETED') AS transactions,
         (SELECT count(*) FROM ledger_postings p WHERE p.platform_id = q.platform_id
            AND p.idempotency_key = 'quote:' || q.id AND p.status = 'posted') AS postings
       FROM quotes q WHERE q.platform_id = $1 AND q.id = ANY($2)`,
      platformId,
      acknowledged.map((one) => one.quoteId)
    )
    expect(settled).toHaveLength(acknowledged.length)
    expect(
      settled.filter((row) => row.status !== "COMPLETED" || row.transactions !== "1" || row.postings !== "1")
    ).toEqual([])
    // Every quote of the run is either untouched (PENDING, no posting) or completed: nothing half done.
    const states = await query<{ quote: string; transaction: string; posting: string | null; n: string }>(
      `SELECT q.status AS quote, t.status AS transaction, p.status AS posting, count(*) AS n
       FROM quotes q JOIN transactions t ON t.id = q.record->>'transactionId'
         LEFT JOIN ledger_postings p ON p.platform_id = q.platform_id AND p.idempotency_key = 'quote:' || q.id
       WHERE q.platform_id = $1 GROUP BY 1, 2, 3 ORDER BY 1`,
      platformId
    )
    expect(states.map(({ n: _, ...state }) => state).filter((state) => state.quote !== "PENDING")).toEqual([
      { quote: "COMPLETED", transaction: "COMPLETED", posting: "posted" }
    ])
    expect(states.filter((state) => state.quote === "PENDING")).toEqual(
      states.filter((state) => state.quote === "PENDING" && state.transaction === "PENDING" && state.posting === null)
    )
    // No reservation is left open.
    expect(
      await query(`SELECT id FROM ledger_postings WHERE platform_id = $1 AND status = 'pending'`, platformId)
    ).toEqual([])

    // The ledger: each guarded account's balance is the sum of its entries, and every currency sums to zero.
    const guarded = await query<{ id: string }>(
      `SELECT id FROM ledger_accounts WHERE platform_id = $1 AND guarded ORDER BY id`,
      platformId
    )
    const { mismatched, totals } = await runtime.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const mismatched: Array<string> = []
        for (const { id } of guarded) {
          const [running, derived] = yield* Effect.all([
            ledger.balance(platformId, id),
            ledger.reconcile(platformId, id)
          ])
          if (JSON.stringify(running, bigints) !== JSON.stringify(derived, bigints)) mismatched.push(id)
        }
        return { mismatched, totals: yield* ledger.postedTotals(platformId) }
      })
    )
    expect(mismatched).toEqual([])
    for (const total of totals.values()) expect(total).toBe(0n)
    // The money moved is exactly what the completed payments moved.
    const completed = Number(states.find((state) => state.quote === "COMPLETED")?.n ?? 0)
    expect(completed).toBeGreaterThanOrEqual(acknowledged.length)
    const sources = await runtime.runPromise(
      Effect.flatMap(Ledger.Ledger, (ledger) =>
        Effect.forEach(accounts, ({ source }) => ledger.balance(platformId, source))
      )
    )
    const paid = sources.reduce((sum, balance) => sum + (BigInt(fundingMinor) - balance.postedMinor), 0n)
    expect(paid).toBe(BigInt(completed * paymentMinor))
    console.info(
      `${sent.length} executes sent, ${acknowledged.length} acknowledged, ${sent.length - acknowledged.length} cut off; ` +
        `at the kill ${atKill?.processing} quotes PROCESSING, ${atKill?.running} settlement jobs RUNNING; ` +
        `${completed} payments completed after the restart`
    )
    expect(await restarted.stop()).toBe(0)
  }, 120_000)
})

const bigints = (_: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value)
