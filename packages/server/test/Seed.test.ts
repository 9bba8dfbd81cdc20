import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "./ServerProcess.js"
import { createTemporaryDatabase } from "./TemporaryDatabase.js"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const api = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

type Body = Record<string, unknown> & { readonly data: ReadonlyArray<Record<string, unknown>> }

const get = async (server: RunningServer, path: string): Promise<Body> => {
  const response = await fetch(`${server.baseUrl}${api}${path}`, { headers: { authorization: server.auth } })
  expect(response.status).toBe(200)
  return (await response.json()) as Body
}

/** Every item of a list, following its cursors. */
const all = async (server: RunningServer, path: string) => {
  const items: Array<Record<string, unknown>> = []
  let cursor: string | undefined
  for (;;) {
    const page = await get(
      server,
      `${path}${path.includes("?") ? "&" : "?"}limit=100${cursor ? `&cursor=${cursor}` : ""}`
    )
    items.push(...page.data)
    if (page["hasMore"] !== true) return items
    cursor = String(page["nextCursor"])
  }
}

/** Runs `payrail seed` against the server (output piped, as in CI) and answers its exit code, stdout and stderr. */
const seed = (server: RunningServer, ...args: Array<string>) => {
  const clientId = /client id\s+(\S+)/.exec(server.output())?.[1] ?? ""
  const clientSecret = /client secret\s+(\S+)/.exec(server.output())?.[1] ?? ""
  const { DATABASE_URL: _unused, ...inherited } = process.env
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ["--import", "tsx", bin, "seed", "--api", `${server.baseUrl}${api}`, ...args],
      {
        env: { ...inherited, PAYRAIL_CLIENT_ID: clientId, PAYRAIL_CLIENT_SECRET: clientSecret, LOG_LEVEL: "Warning" },
        timeout: 180_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  )
}

const numberIn = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN)

/** Seeds a fresh server's sandbox platform with `--seed 7` and reads back what the console would show. */
const seedAndRead = async (env: Record<string, string>) => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-seed-"))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const server = await startServer({ PAYRAIL_DATA_DIR: dataDir, ...env })
  cleanups.push(async () => server.kill())
  const run = await seed(server, "--seed", "7", "--customers", "9", "--days", "14")
  expect(run.code, run.stderr).toBe(0)
  const customers = await all(server, "/customers")
  const transactions = await all(server, "/transactions")
  const external = await all(server, "/customers/external-accounts")
  const clock = (await get(server, "/sandbox/clock")) as unknown as { offsetSeconds: number }
  return { server, run, customers, transactions, external, clock }
}

describe("payrail seed", () => {
  it.each([{ store: "memory" }, ...(databaseUrl === undefined ? [] : [{ store: "PostgreSQL" }])])(
    "fills a sandbox platform ($store) with the counts it promises, the same for the same seed",
    async ({ store }) => {
      const storeEnv: Record<string, string> = { PAYRAIL_STORAGE: "memory" }
      if (store === "PostgreSQL") {
        const database = await createTemporaryDatabase(databaseUrl ?? "", "seed")
        cleanups.push(database.drop)
        storeEnv["PAYRAIL_STORAGE"] = "postgres"
        storeEnv["DATABASE_URL"] = database.url
      }
      const [first, second] = await Promise.all([seedAndRead(storeEnv), seedAndRead({ PAYRAIL_STORAGE: "memory" })])
      const promised = first.run.stdout
      expect(first.customers).toHaveLength(numberIn(promised, /(\d+) customers \(/))
      expect(first.customers.filter((customer) => customer["customerType"] === "BUSINESS")).toHaveLength(
        numberIn(promised, /(\d+) businesses/)
      )
      expect(
        new Set(first.customers.map((customer) => (customer["address"] as { country: string }).country)).size
      ).toBe(numberIn(promised, /(\d+) countries/))
      expect(first.external).toHaveLength(numberIn(promised, /(\d+) external accounts/))
      expect(first.transactions).toHaveLength(numberIn(promised, /(\d+) transactions over/))
      // A few weeks of the platform's time, ending at its new now.
      expect(first.clock.offsetSeconds).toBe(14 * 86_400)
      // Several states: settled, failed and expired (the jobs that settle them may still be finishing).
      const deadline = Date.now() + 30_000
      const statusesOf = async () => new Set((await all(first.server, "/transactions")).map((item) => item["status"]))
      let statuses = await statusesOf()
      while (!["COMPLETED", "EXPIRED", "FAILED"].every((status) => statuses.has(status)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        statuses = await statusesOf()
      }
      expect([...statuses]).toEqual(expect.arrayContaining(["COMPLETED", "EXPIRED", "FAILED"]))
      const currencies = new Set(
        first.transactions.map(
          (transaction) => (transaction["receivedAmount"] as { currency: { code: string } } | undefined)?.currency.code
        )
      )
      expect([...currencies]).toEqual(expect.arrayContaining(["USD", "EUR", "MXN"]))

      // Deterministic: the same seed on another server makes the same customers and the same amounts.
      expect(second.run.stdout.split("\n")[0]?.replace(/http\S+/, "")).toBe(
        promised.split("\n")[0]?.replace(/http\S+/, "")
      )
      const namesOf = (customers: ReadonlyArray<Record<string, unknown>>) =>
        customers
          .map((customer) =>
            String(customer["fullName"] ?? (customer["businessInfo"] as { legalName: string }).legalName)
          )
          .sort()
      expect(namesOf(second.customers)).toEqual(namesOf(first.customers))
      const amountsOf = (transactions: ReadonlyArray<Record<string, unknown>>) =>
        transactions
          .map((transaction) => (transaction["sentAmount"] as { amount: number } | undefined)?.amount ?? 0)
          .sort()
      expect(amountsOf(second.transactions)).toEqual(amountsOf(first.transactions))

      // Progress went to stderr as plain lines (not a terminal), never the client secret.
      expect(first.run.stderr).toMatch(/^customers: \d+ customers and \d+ external accounts created in [\d.]+ s$/m)
      expect(first.run.stderr).toMatch(/^days: \d+ transactions over 14 days in [\d.]+ s$/m)
      expect(first.run.stderr).not.toContain("\r")
      const secret = /client secret\s+(\S+)/.exec(first.server.output())?.[1] ?? "none"
      expect(first.run.stdout + first.run.stderr).not.toContain(secret)
    },
    300_000
  )
})
