import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../ServerProcess.js"
import { createTemporaryDatabase } from "../TemporaryDatabase.js"
import { startVerifyingReceiver } from "./VerifyingReceiver.js"

const bin = fileURLToPath(new URL("../../src/bin.ts", import.meta.url))
const api = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const waitUntil = async (condition: () => boolean, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const credentialsOf = (server: RunningServer) => ({
  clientId: /client id\s+(\S+)/.exec(server.output())?.[1] ?? "",
  clientSecret: /client secret\s+(\S+)/.exec(server.output())?.[1] ?? ""
})

interface Listener {
  readonly output: () => string
  /** The session secret it printed. */
  readonly secret: string
  readonly stop: () => Promise<unknown>
}

/** Runs `payrail webhooks listen` against `baseUrl` with the server's credentials in the environment. */
const startListener = async (server: RunningServer, baseUrl: string, forwardTo: string): Promise<Listener> => {
  const { clientId, clientSecret } = credentialsOf(server)
  const { DATABASE_URL: _unused, ...inherited } = process.env
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", bin, "webhooks", "listen", "--api", `${baseUrl}${api}`, "--forward-to", forwardTo],
    {
      env: { ...inherited, PAYRAIL_CLIENT_ID: clientId, PAYRAIL_CLIENT_SECRET: clientSecret, LOG_LEVEL: "Warning" },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, "exit")
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM")
    return exited
  }
  cleanups.push(stop)
  await waitUntil(() => /session's secret: whsec_\S+/.test(output) || child.exitCode !== null, "the listener")
  const secret = /session's secret: (whsec_\S+)/.exec(output)?.[1] ?? ""
  expect(secret, output).not.toBe("")
  // The token's secret is never printed.
  expect(output).not.toContain(clientSecret)
  return { output: () => output, secret, stop }
}

/** A server that answers 204 to anything: the platform's own endpoint, which the test does not watch. */
const startSink = async () => {
  const sink = createServer((_request, response) => response.writeHead(204).end())
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve))
  cleanups.push(() => new Promise((resolve) => sink.close(resolve)))
  return `http://127.0.0.1:${(sink.address() as AddressInfo).port}/platform-hooks`
}

const post = async (server: RunningServer, path: string, body: unknown) => {
  const response = await fetch(`${server.baseUrl}${api}${path}`, {
    method: "POST",
    headers: { authorization: server.auth, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const createCustomer = async (server: RunningServer, fullName: string) => {
  const created = await post(server, "/customers", { customerType: "INDIVIDUAL", fullName })
  expect(created.status).toBe(201)
  return String(created.body["id"])
}

describe("payrail webhooks listen", () => {
  it("forwards the sandbox test webhook and real events, signed so that standardwebhooks verifies them", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-listen-"))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const server = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory" })
    cleanups.push(async () => server.kill())
    const receiver = await startVerifyingReceiver()
    cleanups.push(receiver.close)
    const listener = await startListener(server, server.baseUrl, receiver.url)
    receiver.trust(listener.secret)

    const sent = await post(server, "/sandbox/webhooks/test", { url: await startSink() })
    expect(sent.status).toBe(200)
    const customerId = await createCustomer(server, "Ada Listener")
    await waitUntil(
      () => receiver.log.some((entry) => entry.type === "CUSTOMER.CREATED"),
      "the customer's event to be forwarded"
    )
    expect(receiver.refused()).toBe(0)
    expect(receiver.log[0]?.type).toBe("TEST")
    expect(receiver.log[0]).not.toHaveProperty("data")
    const created = receiver.log.find((entry) => entry.type === "CUSTOMER.CREATED")
    expect((created?.data as { id?: string } | undefined)?.id).toBe(customerId)
    // One line per delivery: time, type, id, the local answer and the latency. The listener prints it once the
    // receiver has answered, so a line may come a moment after the receiver logged the delivery.
    for (const entry of receiver.log) {
      const line = new RegExp(`^\\S+Z  ${entry.type}  ${entry.id}  -> 200  \\d+ ms$`, "m")
      await waitUntil(() => line.test(listener.output()), `the listener's line of ${entry.type} ${entry.id}`, 10_000)
    }
    await listener.stop()
  }, 120_000)

  it.skipIf(databaseUrl === undefined)(
    "follows two servers on one PostgreSQL database and survives a restart, forwarding each event once",
    async () => {
      const database = await createTemporaryDatabase(databaseUrl ?? "", "webhook_listen")
      cleanups.push(database.drop)
      const dataDir = await mkdtemp(join(tmpdir(), "payrail-listen-pg-"))
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
      const env = { DATABASE_URL: database.url, PAYRAIL_DATA_DIR: dataDir, PAYRAIL_TOKEN_REQUESTS_PER_SECOND: "0" }
      const first = await startServer(env)
      cleanups.push(async () => first.kill())
      const second = await startServer(env)
      cleanups.push(async () => second.kill())
      const receiver = await startVerifyingReceiver()
      cleanups.push(receiver.close)
      // The listener follows the first server only; events are made on both.
      const listener = await startListener(first, first.baseUrl, receiver.url)
      receiver.trust(listener.secret)

      const made: Array<string> = []
      for (let index = 0; index < 10; index++) {
        made.push(await createCustomer(index % 2 === 0 ? first : second, `Before ${index}`))
      }
      const forwardedCustomers = () =>
        new Set(
          receiver.log
            .filter((entry) => entry.type === "CUSTOMER.CREATED")
            .map((entry) => (entry.data as { id: string }).id)
        )
      await waitUntil(() => made.every((id) => forwardedCustomers().has(id)), "events made on both servers")

      // The followed server stops; events keep happening on the other; it comes back on the same port.
      expect(await first.stop()).toBe(0)
      for (let index = 0; index < 10; index++) made.push(await createCustomer(second, `During ${index}`))
      await waitUntil(() => listener.output().includes("unreachable"), "the listener to notice")
      const started = await startServer({ ...env, PORT: String(first.port) })
      cleanups.push(async () => started.kill())
      const restarted = { ...started, baseUrl: first.baseUrl }
      for (let index = 0; index < 5; index++) made.push(await createCustomer(restarted, `After ${index}`))
      await waitUntil(() => made.every((id) => forwardedCustomers().has(id)), "every event after the restart")
      expect(listener.output()).toContain("reconnected")

      const ids = receiver.log.map((entry) => entry.id)
      expect(ids.length).toBe(new Set(ids).size)
      expect(receiver.refused()).toBe(0)
      await listener.stop()
    },
    240_000
  )
})
