import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Redacted } from "effect"
import { Jobs } from "@payrail/core"
import { StoragePostgres } from "@payrail/storage-postgres"
import { afterAll, describe, expect, it } from "vitest"
import { freePort } from "./ServerProcess.js"
import { createTemporaryDatabase } from "./TemporaryDatabase.js"

const entry = fileURLToPath(new URL("./fixtures/ServeWithSlowJobs.ts", import.meta.url))
const databaseUrl = process.env.DATABASE_URL
const cleanups: Array<() => Promise<unknown>> = []
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the fixture server on `url` and resolves once it serves; SIGTERM it through `child`. */
const startServer = async (url: string, env: Record<string, string>): Promise<ChildProcess> => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-jobs-"))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, DATABASE_URL: url, PAYRAIL_DATA_DIR: dataDir, PORT: String(await freePort()), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  cleanups.push(async () => void (child.exitCode === null && child.kill("SIGKILL")))
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 120_000
  while (!/client secret\s+\S+/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await sleep(100)
  }
  return child
}

const store = (url: string) => StoragePostgres.layerPostgres(Redacted.make(url), { listenForCredentialChanges: false })

/** Enqueues one `test.sleep` job per duration, due now. */
const enqueueSleeps = (url: string, millis: ReadonlyArray<number>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const jobs = yield* Jobs.Jobs
      const now = yield* DateTime.now
      yield* jobs.enqueueAll(millis.map((ms) => ({ kind: "test.sleep", payload: { millis: ms }, dueAt: now })))
    }).pipe(Effect.provide(store(url)))
  )

interface Row {
  readonly millis: number
  readonly status: string
  readonly attempts: number
}

const jobRows = (url: string) =>
  Effect.runPromise(
    Effect.flatMap(
      PgClient.PgClient,
      (sql) =>
        sql<Row>`SELECT (payload->>'millis')::int AS millis, status, attempts FROM jobs WHERE kind = 'test.sleep' ORDER BY (payload->>'millis')::int`
    ).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url) })), Effect.scoped)
  )

describe.skipIf(databaseUrl === undefined)("payrail serve runs jobs and stops gracefully (DATABASE_URL)", () => {
  it("on SIGTERM finishes the running job that ends within the timeout and releases the one that does not", async () => {
    const database = await createTemporaryDatabase(databaseUrl ?? "", "jobs_shutdown")
    cleanups.push(database.drop)
    const server = await startServer(database.url, { PAYRAIL_SHUTDOWN_TIMEOUT_SECONDS: "2" })
    const exited = once(server, "exit")
    await enqueueSleeps(database.url, [1_000, 600_000])
    const deadline = Date.now() + 20_000
    while ((await jobRows(database.url)).some((row) => row.status !== "RUNNING")) {
      if (Date.now() > deadline) throw new Error("the server never ran both jobs")
      await sleep(50)
    }
    const stopping = Date.now()
    server.kill("SIGTERM")
    const [code] = await exited
    expect(code).toBe(0)
    // The grace period, plus the time to release the store and exit.
    expect(Date.now() - stopping).toBeLessThan(2_000 + 1_500)
    expect(await jobRows(database.url)).toEqual([
      { millis: 1_000, status: "DONE", attempts: 1 },
      { millis: 600_000, status: "PENDING", attempts: 0 }
    ])
  }, 120_000)
})
