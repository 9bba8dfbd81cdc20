import { mkdtemp, rm } from "node:fs/promises"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { mapConcurrently, stalledHeaders, stalledUpload } from "./RawClient.js"
import { type RunningServer, startServer } from "./ServerProcess.js"
import { createTemporaryDatabase } from "./TemporaryDatabase.js"

const customers = "/2025-10-13/customers"

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const start = async (env: Record<string, string>): Promise<RunningServer> => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-shutdown-"))
  temporaryDirectories.push(dataDir)
  return startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory", ...env })
}

/** Sends SIGTERM and resolves with the exit code and how long the process took to exit (capped at `limitMs`). */
const timedStop = async (server: RunningServer, limitMs: number) => {
  const started = Date.now()
  const timeout = new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), limitMs))
  const code = await Promise.race([server.stop(), timeout])
  return { code, elapsedMs: Date.now() - started }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("graceful shutdown is bounded by PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS", () => {
  it("exits within its setting with 100 uploads stalled mid-body", async () => {
    const server = await start({ PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "2" })
    const uploads = await Promise.all(
      Array.from({ length: 100 }, () =>
        stalledUpload({ port: server.port, path: customers, auth: server.auth, bytes: 1024 })
      )
    )
    try {
      await sleep(500)
      const { code, elapsedMs } = await timedStop(server, 15_000)
      expect(code).toBe(0)
      // The grace period, plus the time to release storage and exit.
      expect(elapsedMs).toBeLessThan(2_000 + 1_500)
      await Promise.all(uploads.map((upload) => upload.closed))
    } finally {
      server.kill()
      for (const upload of uploads) upload.destroy()
    }
  }, 60_000)

  it("exits within its setting while keep-alive clients keep requests in flight", async () => {
    const server = await start({ PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "2" })
    const agent = new Agent({ keepAlive: true, maxSockets: 32 })
    let running = true
    const get = () =>
      new Promise<boolean>((resolve) => {
        const outgoing = request(
          {
            host: "127.0.0.1",
            port: server.port,
            path: `${customers}?limit=100`,
            agent,
            headers: { authorization: server.auth }
          },
          (response) => {
            response.resume()
            response.on("end", () => resolve(true))
          }
        )
        outgoing.on("error", () => resolve(false))
        outgoing.end()
      })
    const clients = Array.from({ length: 32 }, async () => {
      while (running) if (!(await get())) await sleep(20)
    })
    try {
      await sleep(1_000)
      const { code, elapsedMs } = await timedStop(server, 15_000)
      expect(code).toBe(0)
      expect(elapsedMs).toBeLessThan(2_000 + 1_500)
    } finally {
      running = false
      await Promise.all(clients)
      agent.destroy()
      server.kill()
    }
  }, 60_000)
})

describe("slow clients", () => {
  it("drops a connection whose headers stall past PAYRAIL_HEADERS_TIMEOUT_SECONDS", async () => {
    const server = await start({ PAYRAIL_HEADERS_TIMEOUT_SECONDS: "1" })
    try {
      const slow = await stalledHeaders(server.port)
      const outcome = await Promise.race([slow.closed, sleep(10_000).then(() => "still open")])
      expect(outcome).not.toBe("still open")
      slow.destroy()
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)

  it("drops a request whose body stalls past PAYRAIL_REQUEST_TIMEOUT_SECONDS", async () => {
    const server = await start({ PAYRAIL_HEADERS_TIMEOUT_SECONDS: "1", PAYRAIL_REQUEST_TIMEOUT_SECONDS: "2" })
    try {
      const slow = await stalledUpload({ port: server.port, path: customers, auth: server.auth, bytes: 10 })
      const outcome = await Promise.race([slow.closed, sleep(10_000).then(() => "still open")])
      expect(outcome).not.toBe("still open")
      slow.destroy()
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)
})

const databaseUrl = process.env.DATABASE_URL

describe.skipIf(databaseUrl === undefined)("graceful shutdown on PostgreSQL (DATABASE_URL)", () => {
  const startOnPostgres = async (url: string) => start({ DATABASE_URL: url, PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "2" })

  it("exits within its setting when SIGTERM arrives right at its banner, 10 starts in a row", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "shutdown_banner")
    try {
      for (let run = 0; run < 10; run++) {
        const server = await startOnPostgres(database.url)
        try {
          // No request first: the listener's first probe and the pool's first connections may still be out.
          const { code, elapsedMs } = await timedStop(server, 15_000)
          expect(code, `run ${run}: ${server.output()}`).toBe(0)
          expect(elapsedMs, `run ${run}`).toBeLessThan(2_000 + 1_500)
        } finally {
          server.kill()
        }
      }
    } finally {
      await database.drop()
    }
  }, 180_000)

  it("exits within its setting after a long load, with keep-alive clients still connected", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "shutdown_load")
    const server = await start({
      DATABASE_URL: database.url,
      PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "2",
      PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0"
    })
    const agent = new Agent({ keepAlive: true, maxSockets: 16 })
    const send = (method: "GET" | "POST", path: string, body?: string) =>
      new Promise<number>((resolve) => {
        const outgoing = request(
          {
            host: "127.0.0.1",
            port: server.port,
            method,
            path,
            agent,
            headers: { authorization: server.auth, "content-type": "application/json" }
          },
          (response) => {
            response.resume()
            response.on("end", () => resolve(response.statusCode ?? 0))
          }
        )
        outgoing.on("error", () => resolve(0))
        outgoing.end(body)
      })
    try {
      // 6,000 requests over 16 keep-alive connections: reads, writes and refusals, as a busy integrator sends them.
      const statuses = await mapConcurrently(
        Array.from({ length: 6_000 }, (_, index) => index),
        16,
        (index) =>
          index % 10 === 0
            ? send(
                "POST",
                customers,
                JSON.stringify({
                  customerType: "INDIVIDUAL",
                  fullName: `Load ${index}`,
                  platformCustomerId: `load-${index}`
                })
              )
            : index % 10 === 1
              ? send("GET", `${customers}/Customer:00000000-0000-4000-8000-000000000000`)
              : send("GET", `${customers}?limit=20`)
      )
      expect(statuses.filter((status) => status >= 500 || status === 0)).toEqual([])
      expect(statuses.filter((status) => status === 201)).toHaveLength(600)
      expect(statuses.filter((status) => status === 404)).toHaveLength(600)
      // The connections stay open and idle in the agent when the signal comes.
      const { code, elapsedMs } = await timedStop(server, 15_000)
      expect(code).toBe(0)
      expect(elapsedMs).toBeLessThan(2_000 + 1_500)
      // Nothing answers any more.
      expect(await send("GET", "/health")).toBe(0)
    } finally {
      agent.destroy()
      server.kill()
      await database.drop()
    }
  }, 180_000)
})
