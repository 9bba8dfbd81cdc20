import { spawnSync } from "node:child_process"
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { hostname, tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Reactivity from "@effect/experimental/Reactivity"
import { Effect } from "effect"
import { PgliteClient } from "../src/index.js"
import * as PgliteLock from "../src/PgliteLock.js"

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "payrail-pglite-lock-"))),
  (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
)

const exists = (file: string) =>
  Effect.promise(() =>
    stat(file).then(
      () => true,
      () => false
    )
  )

/** The pid of a process that has just exited, so no live process has it (until the system reuses it). */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"])
  return Number(child.stdout.toString())
}

describe("PgliteLock", () => {
  it.scoped("holds the data directory for one holder at a time, and frees it when released", () =>
    Effect.gen(function* () {
      const dataDir = yield* temporaryDirectory
      const lockFile = join(dataDir, PgliteLock.lockFileName)
      const first = yield* Effect.scoped(
        Effect.gen(function* () {
          yield* PgliteLock.acquire(dataDir, "first holder")
          const holder = JSON.parse(yield* Effect.promise(() => readFile(lockFile, "utf8")))
          expect(holder).toMatchObject({ pid: process.pid, hostname: hostname(), command: "first holder" })
          const second = yield* Effect.flip(Effect.scoped(PgliteLock.acquire(dataDir, "second holder")))
          expect(second).toBeInstanceOf(PgliteLock.DataDirectoryInUse)
          expect(second).toMatchObject({ lockFile, holder: { pid: process.pid, command: "first holder" } })
          return holder
        })
      )
      expect(first.pid).toBe(process.pid)
      expect(yield* exists(lockFile)).toBe(false)
      yield* Effect.scoped(PgliteLock.acquire(dataDir, "third holder"))
    })
  )

  it.scoped("takes over a lock left by a process that no longer runs, or that it cannot read", () =>
    Effect.gen(function* () {
      const dataDir = yield* temporaryDirectory
      const lockFile = join(dataDir, PgliteLock.lockFileName)
      const stale = {
        pid: deadPid(),
        hostname: hostname(),
        command: "payrail serve",
        startedAt: "2025-01-01T00:00:00.000Z"
      }
      yield* Effect.promise(() => writeFile(lockFile, JSON.stringify(stale)))
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* PgliteLock.acquire(dataDir, "after a crash")
          const holder = JSON.parse(yield* Effect.promise(() => readFile(lockFile, "utf8")))
          expect(holder).toMatchObject({ pid: process.pid, command: "after a crash" })
        })
      )
      yield* Effect.promise(() => writeFile(lockFile, '{"pid": '))
      yield* Effect.scoped(PgliteLock.acquire(dataDir, "after a torn write"))
      // A lock naming this very pid but not held by this process was left by an earlier process with the same pid.
      yield* Effect.promise(() => writeFile(lockFile, JSON.stringify({ ...stale, pid: process.pid })))
      yield* Effect.scoped(PgliteLock.acquire(dataDir, "same pid, new process"))
    })
  )

  it.scoped("refuses a lock held by a live process, and a lock from another host it cannot check", () =>
    Effect.gen(function* () {
      const dataDir = yield* temporaryDirectory
      const lockFile = join(dataDir, PgliteLock.lockFileName)
      // The parent of this test process is alive for as long as the test runs.
      const live = {
        pid: process.ppid,
        hostname: hostname(),
        command: "payrail serve",
        startedAt: "2025-01-01T00:00:00.000Z"
      }
      yield* Effect.promise(() => writeFile(lockFile, JSON.stringify(live)))
      const refused = yield* Effect.flip(Effect.scoped(PgliteLock.acquire(dataDir, "cli")))
      expect(refused).toBeInstanceOf(PgliteLock.DataDirectoryInUse)
      expect(refused.message).toBe(
        `${dataDir} is in use by process ${process.ppid} (payrail serve, since 2025-01-01T00:00:00.000Z)`
      )
      yield* Effect.promise(() =>
        writeFile(lockFile, JSON.stringify({ ...live, pid: deadPid(), hostname: "elsewhere" }))
      )
      expect(yield* Effect.flip(Effect.scoped(PgliteLock.acquire(dataDir, "cli")))).toBeInstanceOf(
        PgliteLock.DataDirectoryInUse
      )
    })
  )

  it.scoped(
    "makes a second PGlite client on an open data directory fail with the holder as the cause",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* temporaryDirectory
        yield* PgliteClient.make({ dataDir, owner: "first client" })
        const error = yield* Effect.flip(Effect.scoped(PgliteClient.make({ dataDir, owner: "second client" })))
        expect(error.cause).toBeInstanceOf(PgliteClient.DataDirectoryInUse)
        expect(error.message).toContain("(first client, since ")
      }).pipe(Effect.provide(Reactivity.layer)),
    { timeout: 60_000 }
  )
})

describe("PgliteLock in one process", () => {
  it.scoped("lets exactly one of several concurrent acquisitions of one directory win", () =>
    Effect.gen(function* () {
      const dataDir = yield* temporaryDirectory
      const results = yield* Effect.forEach(
        Array.from({ length: 8 }, (_, index) => index),
        (index) => Effect.either(PgliteLock.acquire(dataDir, `contender ${index}`)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result._tag === "Right")).toHaveLength(1)
      expect(
        results.filter((result) => result._tag === "Left" && result.left._tag === "DataDirectoryInUse")
      ).toHaveLength(7)
    })
  )
})
