import { checkedFetch } from "@payrail/http/test/support/OpenApiContract"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { linesOf, runCli } from "./CliProcess.js"
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

const clientIdOf = (auth: string) => Buffer.from(auth.slice("Basic ".length), "base64").toString().split(":")[0] ?? ""

// The status of a customer list on `server` with `auth`, the response checked against the served contract.
const statusOn = async (server: RunningServer, auth: string) =>
  (
    await checkedFetch(fetch, server.baseUrl)(`${server.baseUrl}${api}/customers?limit=1`, {
      headers: { authorization: auth }
    })
  ).status

describe.skipIf(databaseUrl === undefined)("token revocation across server instances (DATABASE_URL)", () => {
  it("a token the CLI revokes is refused by every running server on its next request", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "revocation")
    const servers: Array<RunningServer> = []
    try {
      const dataDir = await mkdtemp(join(tmpdir(), "payrail-revocation-"))
      temporaryDirectories.push(dataDir)
      // Cached for an hour: only the change signal, not expiry, can make the servers refuse the revoked token.
      const env = { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir, PAYRAIL_CREDENTIAL_CACHE_SECONDS: "3600" }
      servers.push(await startServer(env))
      servers.push(await startServer(env))
      const [first, second] = servers
      if (first === undefined || second === undefined) throw new Error("two servers")

      // Several requests, so both servers hold the credentials in their caches.
      for (let round = 0; round < 3; round++) {
        expect(await statusOn(first, first.auth)).toBe(200)
        expect(await statusOn(second, first.auth)).toBe(200)
      }

      // A token the CLI creates while the servers run works on both at once (nothing "not found" was kept).
      const platformId = /Sandbox platform\s+(\S+)/.exec(first.output())?.[1] ?? ""
      const created = await runCli(
        { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir },
        "token",
        "create",
        "--platform-id",
        platformId,
        "--name",
        "beside the servers"
      )
      expect(created.code, created.stderr).toBe(0)
      const fresh = basic(
        /client id\s+(\S+)/.exec(created.stdout)?.[1] ?? "",
        /client secret\s+(\S+)/.exec(created.stdout)?.[1] ?? ""
      )
      expect(await statusOn(first, fresh)).toBe(200)
      expect(await statusOn(second, fresh)).toBe(200)

      const revoked = await runCli(
        { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir },
        "token",
        "revoke",
        "--client-id",
        clientIdOf(first.auth)
      )
      expect(revoked.code, revoked.stderr).toBe(0)
      expect(linesOf(revoked.stdout)).toEqual([expect.stringMatching(/^revoked ApiToken:\S+ \(.+\) of Platform:\S+$/)])

      // No waiting: the very next request on each server is refused, while the other token still works.
      expect(await statusOn(first, first.auth)).toBe(401)
      expect(await statusOn(second, first.auth)).toBe(401)
      expect(await statusOn(first, fresh)).toBe(200)
      expect(await statusOn(second, fresh)).toBe(200)

      const again = await runCli(
        { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir },
        "token",
        "revoke",
        "--client-id",
        clientIdOf(first.auth)
      )
      expect(again.code).not.toBe(0)
      expect(linesOf(again.stderr)).toEqual([expect.stringContaining("API token not found")])
    } finally {
      for (const server of servers) await server.stop()
      await database.drop()
    }
  }, 300_000)
})
