import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import { afterAll, describe, expect, it } from "vitest"
import { mapConcurrently } from "../RawClient.js"
import { type RunningServer, startServer } from "../ServerProcess.js"
import { createTemporaryDatabase } from "../TemporaryDatabase.js"
import { startVerifyingReceiver } from "./VerifyingReceiver.js"

const api = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const eventIdsOf = (url: string, platformId: string) =>
  Effect.runPromise(
    Effect.flatMap(
      PgClient.PgClient,
      (sql) => sql<{ id: string }>`SELECT id FROM outbox WHERE platform_id = ${platformId}`
    ).pipe(
      Effect.map((rows) => rows.map((row) => row.id)),
      Effect.provide(PgClient.layer({ url: Redacted.make(url) })),
      Effect.scoped
    )
  )

const createCustomers = (servers: ReadonlyArray<RunningServer>, count: number, prefix: string) =>
  mapConcurrently(
    Array.from({ length: count }, (_, index) => index),
    16,
    async (index) => {
      const server = servers[index % servers.length] as RunningServer
      const response = await fetch(`${server.baseUrl}${api}/customers`, {
        method: "POST",
        headers: { authorization: server.auth, "content-type": "application/json" },
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: `${prefix} ${index}` })
      })
      return response.status
    }
  )

const waitUntil = async (condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(databaseUrl === undefined)("webhook delivery across server instances (DATABASE_URL)", () => {
  it("two servers on one database deliver each of 1,000 events once; after a SIGKILL mid-delivery none is lost", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "delivery_instances")
    cleanups.push(database.drop)
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-delivery-"))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    // A short lease, so the jobs the killed server held are taken over within seconds.
    const env = {
      DATABASE_URL: database.url,
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_JOB_LEASE_SECONDS: "3",
      PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0"
    }
    const first = await startServer(env)
    cleanups.push(async () => first.kill())
    const platformId = /Sandbox platform\s+(\S+)/.exec(first.output())?.[1] ?? ""
    const secret = /webhook secret\s+(whsec_\S+)/.exec(first.output())?.[1] ?? ""
    expect(secret).not.toBe("")
    const receiver = await startVerifyingReceiver({ delayMs: 5 })
    cleanups.push(receiver.close)
    receiver.trust(secret)
    // Deliveries per webhook id so far; whether every one of `ids` has arrived.
    const counts = () => {
      const byId = new Map<string, number>()
      for (const id of receiver.accepted) byId.set(id, (byId.get(id) ?? 0) + 1)
      return byId
    }
    const arrived = (ids: ReadonlyArray<string>) => {
      const byId = counts()
      return ids.every((id) => byId.has(id))
    }
    const patched = await fetch(`${first.baseUrl}${api}/config`, {
      method: "PATCH",
      headers: { authorization: first.auth, "content-type": "application/json" },
      body: JSON.stringify({ webhookEndpoint: receiver.url })
    })
    expect(patched.status).toBe(200)
    const second = await startServer(env)
    cleanups.push(async () => second.kill())

    // 500 customers, 2 events each, created through both servers.
    expect(new Set(await createCustomers([first, second], 500, "Normal"))).toEqual(new Set([201]))
    const events = await eventIdsOf(database.url, platformId)
    expect(events.length).toBe(1_000)
    await waitUntil(() => arrived(events), "1,000 deliveries")
    // In normal operation, each exactly once.
    const once = counts()
    expect(events.filter((id) => once.get(id) !== 1)).toEqual([])
    expect(receiver.refused()).toBe(0)

    // Another 1,000 events; the first server is killed while deliveries are in flight.
    const creating = createCustomers([second], 500, "Crash")
    await waitUntil(() => counts().size >= 1_100, "the second batch to start arriving")
    first.kill()
    const deliveredAtKill = counts().size
    expect(new Set(await creating)).toEqual(new Set([201]))
    const all = await eventIdsOf(database.url, platformId)
    expect(all.length).toBe(2_000)
    // The kill came while the second batch was still being delivered.
    expect(deliveredAtKill).toBeLessThan(2_000)
    await waitUntil(() => arrived(all), "every event after the kill")
    const final = counts()
    const redelivered = all.filter((id) => (final.get(id) ?? 0) > 1).length
    console.info(`killed at ${deliveredAtKill} of 2,000 delivered; ${redelivered} delivered twice (at least once)`)
    expect(receiver.refused()).toBe(0)
    expect(await second.stop()).toBe(0)
  }, 240_000)
})
