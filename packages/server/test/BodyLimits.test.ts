import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { chunkedUpload, mapConcurrently, residentMiB } from "./RawClient.js"
import { type RunningServer, startServer } from "./ServerProcess.js"

const customers = "/2025-10-13/customers"
const oneMiB = 1024 * 1024

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const start = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-body-"))
  temporaryDirectories.push(dataDir)
  return startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory", ...env })
}

const expectPayloadTooLarge = (outcome: Awaited<ReturnType<typeof chunkedUpload>>) => {
  expect(outcome).toMatchObject({ status: 413 })
  if (!("status" in outcome)) return
  expect(JSON.parse(outcome.body)).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" })
}

describe("request bodies over the limit", () => {
  it("answers 413 with the error body whether the body is chunked or declares its length", async () => {
    const server = await start()
    try {
      expectPayloadTooLarge(
        await chunkedUpload({ port: server.port, path: customers, auth: server.auth, bytes: 2 * oneMiB })
      )
      // Just past the limit, so the cut happens while the client is still sending.
      expectPayloadTooLarge(
        await chunkedUpload({ port: server.port, path: customers, auth: server.auth, bytes: oneMiB + 1 })
      )
      const declared = await fetch(`${server.baseUrl}${customers}`, {
        method: "POST",
        headers: { authorization: server.auth, "content-type": "application/json" },
        body: "x".repeat(2 * oneMiB)
      })
      expect(declared.status).toBe(413)
      expect(await declared.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
      // The server still answers after the cut connections.
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
    } finally {
      server.kill()
    }
    expect(await server.exited).not.toBeUndefined()
  }, 120_000)

  it("keeps resident memory within 10% of its start over 600 oversized chunked uploads, then stops on SIGTERM", async () => {
    // 900 uploads on one token as fast as the machine goes: the per-token request limit would answer some 429.
    const server = await start({ PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "5", PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0" })
    try {
      const upload = () =>
        chunkedUpload({ port: server.port, path: customers, auth: server.auth, bytes: oneMiB + 256 * 1024 })
      // A warm-up, so the baseline includes the code paths and buffers every upload uses and the heap has grown to
      // its working size (it still grows by some 25 MiB over the first 300 uploads, then by a few MiB: a leak would
      // keep growing with every upload).
      await mapConcurrently(Array.from({ length: 300 }), 6, upload)
      const before = residentMiB(server.pid)
      const outcomes = await mapConcurrently(Array.from({ length: 600 }), 6, upload)
      const statuses = outcomes.map((outcome) => ("status" in outcome ? outcome.status : outcome.error))
      expect(new Set(statuses)).toEqual(new Set([413]))
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const after = residentMiB(server.pid)
      expect(after, `resident memory ${before.toFixed(0)} MiB before, ${after.toFixed(0)} MiB after`).toBeLessThan(
        before * 1.1
      )
      const stopping = Date.now()
      expect(await server.stop()).toBe(0)
      expect(Date.now() - stopping).toBeLessThan(5_000)
    } finally {
      server.kill()
    }
  }, 120_000)
})
