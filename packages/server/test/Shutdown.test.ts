import { mkdtemp, rm } from "node:fs/promises"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { stalledHeaders, stalledUpload } from "./RawClient.js"
import { type RunningServer, startServer } from "./ServerProcess.js"

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
