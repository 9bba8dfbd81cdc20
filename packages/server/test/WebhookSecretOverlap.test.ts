import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startServer } from "./ServerProcess.js"

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

it("rotates the webhook secret with the overlap PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS configures", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-webhook-overlap-"))
  temporaryDirectories.push(dataDir)
  const server = await startServer({
    PAYRAIL_DATA_DIR: dataDir,
    PAYRAIL_STORAGE: "memory",
    PAYRAIL_WEBHOOK_SECRET_OVERLAP_SECONDS: "600"
  })
  try {
    const before = Date.now()
    const rotated = await fetch(`${server.baseUrl}/2025-10-13/webhooks/secret/rotate`, {
      method: "POST",
      headers: { authorization: server.auth }
    })
    expect(rotated.status).toBe(200)
    const { previousSecretsExpireAt } = (await rotated.json()) as { previousSecretsExpireAt: string }
    // Ten minutes after the rotation, not the default 24 hours.
    const overlapMillis = Date.parse(previousSecretsExpireAt) - before
    expect(overlapMillis).toBeGreaterThanOrEqual(600_000)
    expect(overlapMillis).toBeLessThan(600_000 + 60_000)
  } finally {
    await server.stop()
  }
})
