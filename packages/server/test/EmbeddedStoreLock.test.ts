import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { hasAnsi, linesOf, runCli } from "./CliProcess.js"
import { freePort, type RunningServer, startServer } from "./ServerProcess.js"

const api = "/2025-10-13"
const directories: Array<string> = []
// Servers still running when a test ends early (a failed expectation) are stopped afterwards.
const running = new Set<RunningServer>()
afterAll(async () => {
  await Promise.all([...running].map((server) => server.stop()))
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })))
})

const start = async (env: Record<string, string>) => {
  const server = await startServer(env)
  running.add(server)
  return server
}

const stop = (server: RunningServer) => {
  running.delete(server)
  return server.stop()
}

const basic = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false
  )

/** The one line a refused CLI command prints, checked for what a person needs and nothing internal. */
const expectRefusedBecauseServerRuns = (result: { code: number; stdout: string; stderr: string }, pid: number) => {
  expect(result.code).not.toBe(0)
  expect(result.stdout).toBe("")
  const lines = linesOf(result.stderr)
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(`in use by process ${pid} (payrail serve`)
  expect(lines[0]).toContain("the server is running")
  expect(lines[0]).toContain("Stop it first")
  expect(lines[0]).toContain("DATABASE_URL")
  expect(lines[0]).not.toMatch(/_tag|\bat .*\.ts:\d+/)
  expect(hasAnsi(result.stderr)).toBe(false)
}

describe("the embedded store is opened by one process at a time", () => {
  it("refuses CLI writes while the server runs, loses nothing, and takes over a lock left by a killed server", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-lock-"))
    directories.push(dataDir)
    const env = { PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "pglite" }
    const lockFile = join(dataDir, "pglite", "payrail.lock")

    const holder = async () => JSON.parse(await readFile(lockFile, "utf8")) as { pid: number; command: string }

    const first = await start(env)
    const { command, pid } = await holder()
    expect(command).toBe("payrail serve")

    // While it runs, the CLI is refused with one line and writes nothing; so is a second server.
    expectRefusedBecauseServerRuns(await runCli(env, "platform", "create", "--name", "Ghost"), pid)
    const second = await runCli({ ...env, PORT: String(await freePort()) }, "serve")
    expect(second.code).not.toBe(0)
    expect(linesOf(second.stderr)).toEqual([
      expect.stringContaining("a server is already running on this data directory")
    ])
    expect(await stop(first)).toBe(0)
    expect(await exists(lockFile)).toBe(false)

    // Stopped: the CLI works, and what it made is there and usable once the server runs again.
    const listed = await runCli(env, "platform", "list")
    expect(linesOf(listed.stdout)).toHaveLength(1)
    expect(listed.stdout).not.toContain("Ghost")
    const created = await runCli(env, "platform", "create", "--name", "Acme Pay", "--environment", "PRODUCTION")
    expect(created.code).toBe(0)
    const platformId = created.stdout.split("\n")[0] ?? ""
    const token = await runCli(env, "token", "create", "--platform-id", platformId)
    expect(token.code).toBe(0)
    const clientId = /client id\s+(\S+)/.exec(token.stdout)?.[1] ?? ""
    const clientSecret = /client secret\s+(\S+)/.exec(token.stdout)?.[1] ?? ""

    const restarted = await start(env)
    const restartedPid = (await holder()).pid
    let customerId = ""
    try {
      const auth = basic(clientId, clientSecret)
      const customers = await fetch(`${restarted.baseUrl}${api}/customers`, { headers: { authorization: auth } })
      expect(customers.status).toBe(200)
      const customer = await fetch(`${restarted.baseUrl}${api}/customers`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Jo Production 002" })
      })
      expect(customer.status).toBe(201)
      const body = (await customer.json()) as { id: string; kycStatus: string }
      // A production platform applies no sandbox magic suffix and approves no one by itself.
      expect(body.kycStatus).toBe("UNVERIFIED")
      customerId = body.id
      expectRefusedBecauseServerRuns(await runCli(env, "platform", "list"), restartedPid)
    } finally {
      // A crash: no finalizer runs and the lock stays behind, naming a process that no longer exists.
      process.kill(restartedPid, "SIGKILL")
      await stop(restarted)
    }
    expect(await exists(lockFile)).toBe(true)

    const afterCrash = await start(env)
    try {
      expect((await holder()).pid).not.toBe(restartedPid)
      const read = await fetch(`${afterCrash.baseUrl}${api}/customers/${customerId}`, {
        headers: { authorization: basic(clientId, clientSecret) }
      })
      expect(read.status).toBe(200)
    } finally {
      expect(await stop(afterCrash)).toBe(0)
    }
  }, 600_000)
})
