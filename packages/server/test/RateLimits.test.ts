import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { mapConcurrently } from "./RawClient.js"
import { type RunningServer, startServer } from "./ServerProcess.js"

const customers = "/2025-10-13/customers"

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const start = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-limits-"))
  temporaryDirectories.push(dataDir)
  return startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "pglite", ...env })
}

const basicWith = (auth: string, secret: string) => {
  const clientId = Buffer.from(auth.slice("Basic ".length), "base64").toString().split(":")[0] ?? ""
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`
}

describe("rate limits of the running server (embedded PostgreSQL, default settings)", () => {
  it("answers 3,000 wrong secrets with 429 from the 21st on, the right secret too, and counts one address across client ids", async () => {
    const server = await start()
    try {
      const wrong = basicWith(server.auth, "sk_sandbox_wrong")
      // In the order the answers arrive: 16 requests are in flight at a time.
      const statuses: Array<{ status: number; code: string; retryAfter: string | null }> = []
      const started = Date.now()
      await mapConcurrently(Array.from({ length: 3000 }), 16, async () => {
        const response = await fetch(`${server.baseUrl}${customers}`, { headers: { authorization: wrong } })
        const retryAfter = response.headers.get("retry-after")
        const body = (await response.json()) as { code: string }
        statuses.push({ status: response.status, code: body.code, retryAfter })
      })
      const seconds = (Date.now() - started) / 1000
      const limited = statuses.filter((outcome) => outcome.status === 429)
      const firstLimited = statuses.findIndex((outcome) => outcome.status === 429)
      console.log(
        `3000 wrong secrets in ${seconds.toFixed(1)} s: ${limited.length} answered 429, ` +
          `${statuses.length - limited.length} answered 401; the first 429 was answer ${firstLimited + 1}`
      )
      // 20 failures a minute per client id: at most one more is admitted every 3 seconds while the run lasts.
      expect(statuses.slice(0, 20).every((outcome) => outcome.status === 401)).toBe(true)
      expect(firstLimited).toBe(20)
      expect(statuses.length - limited.length).toBeLessThanOrEqual(20 + Math.ceil(seconds / 3))
      for (const outcome of limited) {
        expect(outcome.code).toBe("RATE_LIMITED")
        expect(Number(outcome.retryAfter)).toBeGreaterThanOrEqual(1)
      }
      expect(new Set(statuses.map((outcome) => outcome.status))).toEqual(new Set([401, 429]))

      // One more failure is admitted every 3 s, and the right secret goes through when one is due. So wrong secrets
      // first, until a 429 says the next admission is over a second away; then the right secret is refused too.
      for (let probes = 0; probes < 10; probes++) {
        const probe = await fetch(`${server.baseUrl}${customers}`, { headers: { authorization: wrong } })
        await probe.arrayBuffer()
        if (probe.status === 429 && Number(probe.headers.get("retry-after")) >= 2) break
        if (probe.status === 429) await new Promise((resolve) => setTimeout(resolve, 1_100))
      }
      const right = await fetch(`${server.baseUrl}${customers}`, { headers: { authorization: server.auth } })
      expect(right.status).toBe(429)
      expect(right.headers.get("retry-after")).toMatch(/^[1-3]$/)

      // Guessing across client ids from one address stops at 100 failures a minute (a few were spent above).
      const rotating = await mapConcurrently(
        Array.from({ length: 200 }, (_, index) => index),
        8,
        async (index) => {
          const auth = `Basic ${Buffer.from(`pk_guess_${index}:sk_sandbox_wrong`).toString("base64")}`
          const response = await fetch(`${server.baseUrl}${customers}`, { headers: { authorization: auth } })
          await response.arrayBuffer()
          return response.status
        }
      )
      const addressLimited = rotating.filter((status) => status === 429).length
      console.log(`200 guesses across client ids from one address: ${addressLimited} answered 429`)
      expect(addressLimited).toBeGreaterThanOrEqual(100)
      expect(server.output()).not.toMatch(/ERROR|sk_sandbox_wrong/)
    } finally {
      server.kill()
    }
  }, 240_000)

  it("lets every wrong secret through to 401 when the limits are turned off", async () => {
    const server = await start({ PAYRAIL_AUTH_FAILURES_PER_CLIENT_ID: "0", PAYRAIL_AUTH_FAILURES_PER_ADDRESS: "0" })
    try {
      const wrong = basicWith(server.auth, "sk_sandbox_wrong")
      const statuses = await mapConcurrently(Array.from({ length: 200 }), 8, async () => {
        const response = await fetch(`${server.baseUrl}${customers}`, { headers: { authorization: wrong } })
        await response.arrayBuffer()
        return response.status
      })
      expect(new Set(statuses)).toEqual(new Set([401]))
    } finally {
      server.kill()
    }
  }, 240_000)

  it("limits the API's and the console's sign-ins by the address a trusted proxy forwarded for", async () => {
    const server = await start({
      PAYRAIL_TRUSTED_PROXIES: "loopback",
      PAYRAIL_AUTH_FAILURES_PER_CLIENT_ID: "0",
      PAYRAIL_AUTH_FAILURES_PER_ADDRESS: "5"
    })
    try {
      const statusOf = async (path: string, client: string, attempt: number) => {
        const guess = `Basic ${Buffer.from(`pk_guess_${attempt}:sk_sandbox_wrong`).toString("base64")}`
        const response = await fetch(`${server.baseUrl}${path}`, {
          headers: { authorization: guess, "x-forwarded-for": client }
        })
        await response.arrayBuffer()
        return response.status
      }
      for (const path of [customers, "/console"]) {
        // One client behind the proxy spends its failures; the next one, through the same proxy, has its own.
        const first = `203.0.113.${path === customers ? 1 : 3}`
        const second = `203.0.113.${path === customers ? 2 : 4}`
        const statuses: Array<number> = []
        for (let attempt = 0; attempt < 7; attempt++) statuses.push(await statusOf(path, first, attempt))
        expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
        expect(statuses.slice(5)).toEqual([429, 429])
        expect(await statusOf(path, second, 0)).toBe(401)
      }
    } finally {
      server.kill()
    }
  }, 240_000)
})
