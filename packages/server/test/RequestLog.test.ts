import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { hasAnsi, linesOf } from "./CliProcess.js"
import { startServer } from "./ServerProcess.js"

const api = "/2025-10-13"

/** The lines the server printed after its banner, while `requests` ran. */
const logLinesOf = async (env: Record<string, string>, requests: (baseUrl: string, auth: string) => Promise<void>) => {
  // The memory store keeps nothing, but the bootstrap still writes its credentials file into the data directory.
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-request-log-"))
  const server = await startServer({ PAYRAIL_STORAGE: "memory", PAYRAIL_DATA_DIR: dataDir, ...env })
  try {
    const before = server.output().length
    await requests(server.baseUrl, server.auth)
    await new Promise((resolve) => setTimeout(resolve, 300))
    return linesOf(server.output().slice(before))
  } finally {
    expect(await server.stop()).toBe(0)
    await rm(dataDir, { recursive: true, force: true })
  }
}

const threeRequests = async (baseUrl: string, auth: string) => {
  expect((await fetch(`${baseUrl}/health?token=secret-in-query`)).status).toBe(200)
  const created = await fetch(`${baseUrl}${api}/customers`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Body Secret" })
  })
  expect(created.status).toBe(201)
  expect((await fetch(`${baseUrl}${api}/customers`, { headers: { authorization: "Basic bm9wZTpub3Bl" } })).status).toBe(
    401
  )
}

describe("request logging", () => {
  it("writes one access line per request at debug level: method, path without query, status, duration", async () => {
    const lines = await logLinesOf({ LOG_LEVEL: "debug" }, threeRequests)
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/ DEBUG .*: GET \/health 200 \d+\.\dms$/)
    expect(lines[1]).toMatch(/ DEBUG .*: POST \/2025-10-13\/customers 201 \d+\.\dms$/)
    expect(lines[2]).toMatch(/ DEBUG .*: GET \/2025-10-13\/customers 401 \d+\.\dms$/)
    const all = lines.join("\n")
    expect(all).not.toContain("secret-in-query")
    expect(all).not.toContain("Body Secret")
    expect(all).not.toMatch(/authorization|bm9wZTpub3Bl/i)
    expect(hasAnsi(all)).toBe(false)
  }, 180_000)

  it("writes no per-request line at the default level", async () => {
    expect(await logLinesOf({ LOG_LEVEL: "info" }, threeRequests)).toEqual([])
  }, 180_000)

  it("writes one JSON object per line with LOG_FORMAT=json", async () => {
    const lines = await logLinesOf({ LOG_LEVEL: "debug", LOG_FORMAT: "json" }, threeRequests)
    expect(lines).toHaveLength(3)
    const entries = lines.map((line) => JSON.parse(line) as { message: unknown; logLevel: string })
    expect(entries.map((entry) => entry.logLevel)).toEqual(["DEBUG", "DEBUG", "DEBUG"])
    expect(String(entries[1]?.message)).toMatch(/^POST \/2025-10-13\/customers 201 \d+\.\dms$/)
  }, 180_000)
})
