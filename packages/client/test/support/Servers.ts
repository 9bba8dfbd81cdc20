import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { startServer, type RunningServer } from "../../../server/test/ServerProcess.js"
import { createTemporaryDatabase } from "../../../server/test/TemporaryDatabase.js"

/** A reference server started for a test file, with the sandbox credentials it printed. */
export interface TestServer {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly process: RunningServer
}

/**
 * The stores the client is tested on: memory, and PostgreSQL when `DATABASE_URL` is set (CI always sets it; without
 * it the PostgreSQL suites are reported as skipped, by a name that says why).
 */
export const stores: ReadonlyArray<{
  readonly store: "memory" | "PostgreSQL"
  readonly label: string
  readonly skip: boolean
}> = [
  { store: "memory", label: "memory", skip: false },
  { store: "PostgreSQL", label: "PostgreSQL (DATABASE_URL)", skip: (process.env["DATABASE_URL"] ?? "") === "" }
]

/**
 * Starts `payrail serve` on `store` before the suite's tests (a real socket on an ephemeral port) and stops it after;
 * PostgreSQL gets a database of its own, dropped afterwards. Read the server from the returned function.
 */
export const serverFor = (store: "memory" | "PostgreSQL", prefix: string): (() => TestServer) => {
  let server: TestServer | undefined
  const cleanups: Array<() => Promise<unknown>> = []
  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), `payrail-${prefix}-`))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    let env: Record<string, string> = { PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir }
    if (store === "PostgreSQL") {
      const database = await createTemporaryDatabase(process.env["DATABASE_URL"] ?? "", prefix)
      cleanups.push(database.drop)
      env = { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir }
    }
    const running = await startServer(env)
    cleanups.unshift(() => running.stop())
    const [clientId = "", clientSecret = ""] = Buffer.from(running.auth.replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
    server = { baseUrl: running.baseUrl, clientId, clientSecret, process: running }
  }, 300_000)
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup()
  }, 120_000)
  return () => {
    if (server === undefined) throw new Error("the server has not started")
    return server
  }
}

/** A `fetch` that records what it sent and lets a test fail or replace an attempt. */
export const recordingFetch = (
  intercept: (attempt: number, request: Request, send: () => Promise<Response>) => Promise<Response> = (
    _attempt,
    _request,
    send
  ) => send()
) => {
  const sent: Array<{ readonly method: string; readonly url: string; readonly headers: Headers }> = []
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    sent.push({ method: request.method, url: request.url, headers: new Headers(request.headers) })
    return intercept(sent.length, request, () => fetch(request.clone()))
  }) as typeof globalThis.fetch
  return { fetch: fetchImpl, sent }
}
