import { randomUUID } from "node:crypto"
import { unlinkSync } from "node:fs"
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from "node:fs/promises"
import { hostname } from "node:os"
import path from "node:path"
import { Clock, DateTime, Effect, Option, Schema, type Scope } from "effect"

/** The file, inside a PGlite data directory, that names the process using the directory. */
export const lockFileName = "payrail.lock"

/** Who holds a data directory: what the lock file records. */
export const Holder = Schema.Struct({
  pid: Schema.Int,
  hostname: Schema.String,
  /** What the process is, for people: `payrail serve`, a test runner… */
  command: Schema.String,
  startedAt: Schema.String
})
export type Holder = typeof Holder.Type

const decodeHolder = Schema.decodeUnknownOption(Schema.parseJson(Holder))

/** Another live process (or another layer of this process) has the PGlite data directory open. */
export class DataDirectoryInUse extends Schema.TaggedError<DataDirectoryInUse>()("DataDirectoryInUse", {
  dataDir: Schema.String,
  lockFile: Schema.String,
  holder: Holder
}) {
  override get message(): string {
    const { command, hostname: host, pid, startedAt } = this.holder
    const where = host === hostname() ? "" : ` on host ${host}`
    return `${this.dataDir} is in use by process ${pid}${where} (${command}, since ${startedAt})`
  }
}

/** The lock could not be read, written or removed (permissions, a full disk…). */
export class LockFailure extends Schema.TaggedError<LockFailure>()("LockFailure", {
  lockFile: Schema.String,
  operation: Schema.String,
  cause: Schema.Defect
}) {
  override get message(): string {
    return `could not ${this.operation} ${this.lockFile}: ${String(this.cause)}`
  }
}

// Lock files this process holds, with the exact content it wrote, and how many acquisitions of each are under way
// here. A lock naming this pid that this process neither holds nor is taking was left by an earlier process that had
// the same pid (a container restarted after a crash), so it is stale.
const held = new Map<string, string>()
const acquiring = new Map<string, number>()
let exitHookInstalled = false

const releaseAllOnExit = () => {
  for (const lockFile of held.keys()) {
    try {
      unlinkSync(lockFile)
    } catch {
      // Already gone: nothing to release.
    }
  }
  held.clear()
}

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined

const isAlive = (holder: Holder, lockFile: string): boolean => {
  // A process on another host cannot be checked from here: its lock counts as held.
  if (holder.hostname !== hostname()) return true
  if (holder.pid === process.pid) return held.has(lockFile) || (acquiring.get(lockFile) ?? 0) > 1
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return errorCode(error) === "EPERM"
  }
}

const attempt = <A>(lockFile: string, operation: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new LockFailure({ lockFile, operation, cause }) })

const readContent = (lockFile: string) =>
  attempt(lockFile, "read", () =>
    readFile(lockFile, "utf8").then(Option.some<string>, (error: unknown) => {
      if (errorCode(error) === "ENOENT") return Option.none<string>()
      throw error
    })
  )

// Writes the whole record to a private file, then links it into place: link(2) fails when the lock exists, and a
// reader never sees a half-written record.
const tryCreate = (lockFile: string, content: string) =>
  attempt(lockFile, "create", async () => {
    const draft = `${lockFile}.${process.pid}.${randomUUID()}`
    await writeFile(draft, content, { mode: 0o644 })
    try {
      await link(draft, lockFile)
      return true
    } catch (error) {
      if (errorCode(error) === "EEXIST") return false
      throw error
    } finally {
      await unlink(draft).catch(() => undefined)
    }
  })

// Removing a stale lock is serialized by a guard directory (mkdir is atomic), and removes the lock only if it still
// holds the stale record: two processes taking over at once cannot both succeed. A guard older than 10 s was left
// by a process that died while taking over, and is removed.
const removeStale = (lockFile: string, staleContent: string, nowMillis: number) =>
  attempt(lockFile, "take over", async () => {
    const guard = `${lockFile}.takeover`
    try {
      await mkdir(guard)
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error
      const age = await stat(guard).then(
        (info) => nowMillis - info.mtimeMs,
        () => 0
      )
      if (age > 10_000) await rmdir(guard).catch(() => undefined)
      return
    }
    try {
      const current = await readFile(lockFile, "utf8").catch(() => undefined)
      if (current === staleContent) await unlink(lockFile)
    } finally {
      await rmdir(guard).catch(() => undefined)
    }
  })

const release = (lockFile: string, content: string) =>
  Effect.promise(async () => {
    if (held.get(lockFile) !== content) return
    held.delete(lockFile)
    const current = await readFile(lockFile, "utf8").catch(() => undefined)
    if (current === content) await unlink(lockFile).catch(() => undefined)
  })

/**
 * Takes the exclusive lock of a PGlite data directory for the scope: `<dataDir>/payrail.lock`, created atomically and
 * holding this process's pid, host, `command` and start time. Fails with `DataDirectoryInUse` while a live process
 * (this one included, through another layer) holds it. A lock left by a process that no longer runs (killed, crashed)
 * is stale and taken over. The lock is removed when the scope closes, and when the process exits without closing it.
 * Guarantees that two holders never overlap as long as every opener goes through this function.
 */
export const acquire = (
  dataDir: string,
  command: string
): Effect.Effect<void, DataDirectoryInUse | LockFailure, Scope.Scope> => {
  const directory = path.resolve(dataDir)
  const lockFile = path.join(directory, lockFileName)
  const take = Effect.gen(function* () {
    const startedAt = DateTime.formatIso(yield* DateTime.now)
    const holder: Holder = { pid: process.pid, hostname: hostname(), command, startedAt }
    const content = `${JSON.stringify(holder)}\n`
    yield* attempt(lockFile, "create the directory of", () => mkdir(directory, { recursive: true }))
    for (let round = 0; round < 50; round++) {
      if (yield* tryCreate(lockFile, content)) {
        held.set(lockFile, content)
        if (!exitHookInstalled) {
          exitHookInstalled = true
          process.once("exit", releaseAllOnExit)
        }
        return content
      }
      const existing = yield* readContent(lockFile)
      if (Option.isNone(existing)) continue
      const current = decodeHolder(existing.value)
      // An unreadable record cannot come from this function, which writes whole records: it counts as stale.
      if (Option.isSome(current) && isAlive(current.value, lockFile)) {
        return yield* new DataDirectoryInUse({ dataDir: directory, lockFile, holder: current.value })
      }
      yield* removeStale(lockFile, existing.value, yield* Clock.currentTimeMillis)
      yield* Effect.sleep("20 millis")
    }
    return yield* new LockFailure({ lockFile, operation: "take", cause: "another process kept taking it over" })
  })
  const counted = Effect.acquireUseRelease(
    Effect.sync(() => acquiring.set(lockFile, (acquiring.get(lockFile) ?? 0) + 1)),
    () => take,
    () =>
      Effect.sync(() => {
        const remaining = (acquiring.get(lockFile) ?? 1) - 1
        if (remaining === 0) acquiring.delete(lockFile)
        else acquiring.set(lockFile, remaining)
      })
  )
  // The lock is shared with other processes, so it waits and timestamps in real time, even under a TestClock.
  return Effect.asVoid(
    Effect.acquireRelease(Effect.withClock(counted, Clock.make()), (content) => release(lockFile, content))
  )
}
