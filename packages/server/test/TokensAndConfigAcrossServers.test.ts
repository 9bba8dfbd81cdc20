import { checkedFetch } from "@payrail/http/test/support/OpenApiContract"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "./ServerProcess.js"
import { createTemporaryDatabase } from "./TemporaryDatabase.js"

const api = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL
const temporaryDirectories: Array<string> = []

afterAll(async () => {
  for (const directory of temporaryDirectories) await rm(directory, { recursive: true, force: true })
})

const basic = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`

// A request to `server`, its response checked against the served contract.
const call = (server: RunningServer, path: string, auth: string, init: { method?: string; body?: unknown } = {}) =>
  checkedFetch(fetch, server.baseUrl)(`${server.baseUrl}${api}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: auth, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })

describe.skipIf(databaseUrl === undefined)("tokens and configuration across server instances (DATABASE_URL)", () => {
  it("a token made by POST /tokens works on both servers; DELETE and PATCH /config reach both on the next request", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "tokens")
    const servers: Array<RunningServer> = []
    try {
      const dataDir = await mkdtemp(join(tmpdir(), "payrail-tokens-"))
      temporaryDirectories.push(dataDir)
      // Cached for an hour: only the change signal, not expiry, can make the servers see a change.
      const env = { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir, PAYRAIL_CREDENTIAL_CACHE_SECONDS: "3600" }
      servers.push(await startServer(env))
      servers.push(await startServer(env))
      const [first, second] = servers
      if (first === undefined || second === undefined) throw new Error("two servers")

      const response = await call(first, "/tokens", first.auth, {
        method: "POST",
        body: { name: "across", permissions: ["VIEW", "MANAGE"] }
      })
      expect(response.status).toBe(201)
      const created = (await response.json()) as { id: string; clientId: string; clientSecret: string }
      const token = basic(created.clientId, created.clientSecret)
      // Several requests, so both servers hold the new credentials (and the platform) in their caches.
      for (let round = 0; round < 3; round++) {
        expect((await call(first, "/customers?limit=1", token)).status).toBe(200)
        expect((await call(second, "/customers?limit=1", token)).status).toBe(200)
      }

      // A configuration change on one server governs the next request on the other (its cache holds the platform).
      const customer = (await (
        await call(second, "/customers", token, {
          method: "POST",
          body: { customerType: "INDIVIDUAL", fullName: "Kim Lee", email: "kim@example.com" }
        })
      ).json()) as { id: string }
      const wallet = {
        customerId: customer.id,
        currency: "USDC",
        accountInfo: { accountType: "BASE_WALLET", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }
      }
      expect(
        (await call(first, "/config", token, { method: "PATCH", body: { subjectToCounterpartyRules: true } })).status
      ).toBe(200)
      const refused = await call(second, "/customers/external-accounts", token, { method: "POST", body: wallet })
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { details: { errors: Array<{ field: string }> } }).details.errors).toEqual([
        expect.objectContaining({ field: "ownershipType" })
      ])

      // Deleted on one server: refused by both on the very next request, while the other token still works.
      expect((await call(first, `/tokens/${created.id}`, first.auth, { method: "DELETE" })).status).toBe(204)
      expect((await call(first, "/customers?limit=1", token)).status).toBe(401)
      expect((await call(second, "/customers?limit=1", token)).status).toBe(401)
      expect((await call(second, "/customers?limit=1", first.auth)).status).toBe(200)
    } finally {
      for (const server of servers) await server.stop()
      await database.drop()
    }
  }, 300_000)
})
