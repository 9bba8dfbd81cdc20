import { Job, Jobs, PlatformTime, ResourceId } from "@payrail/core"
import { Array as Arr, type Context, DateTime, Duration, Effect, Layer, Option, PubSub, Runtime, Stream } from "effect"
import { platformsOf } from "../kernel/MemoryPlatformTable.js"
import { MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

/** A stored job and what only the store knows of it: its lease and its de-duplication key. */
interface Entry {
  readonly job: Job.Job
  readonly lease: Option.Option<{ readonly token: string; readonly expiresAt: DateTime.Utc }>
  readonly deduplicationKey: Option.Option<string>
}

const unfinished = (entry: Entry) => entry.job.status === "PENDING" || entry.job.status === "RUNNING"
const keyOf = (kind: string, deduplicationKey: string) => `${kind}\u0000${deduplicationKey}`
const noUndo = () => {}

/**
 * `Jobs` in memory, in the store's `MemoryState`: an enqueue is undone with the unit of work it was made in. `claim`
 * is a write, so it waits for a running unit of work to end and never sees a job that may still be rolled back.
 * Wakeups are published once the unit of work that enqueued commits (and not when it rolls back), to every
 * subscriber of this store.
 */
export const make: Effect.Effect<Context.Tag.Service<Jobs.Jobs>, never, MemoryState> = Effect.gen(function* () {
  const state = yield* MemoryState
  const entries = state.table<Entry>("jobs")
  const platforms = platformsOf(state)
  const offsetOfPlatform = (platformId: string | undefined): Duration.Duration =>
    Duration.seconds(platformId === undefined ? 0 : (platforms.get(platformId)?.clockOffsetSeconds ?? 0))
  const clockOffsetOf = (job: Job.Job): Duration.Duration => offsetOfPlatform(job.platformId)
  // A platform's job is due at its given platform time under the platform's offset as the store has it now (as on
  // PostgreSQL): a caller whose reading of the offset went stale (a clock advanced while it ran) is still right.
  // Other jobs convert with the caller's offset.
  const realDueAt = (dueAt: DateTime.Utc, platformId: string | undefined, shift: Duration.Duration) =>
    DateTime.subtractDuration(dueAt, platformId === undefined ? shift : offsetOfPlatform(platformId))
  // `(kind, deduplicationKey)` of every unfinished job that has a key, to its id.
  const unfinishedKeys = state.table<Job.JobId>("jobs_deduplication")
  const signals = yield* PubSub.sliding<void>(1)
  // The runtime of the layer, outside any unit of work: a fiber forked on it waits for the write lock, so it runs
  // once the unit of work of the enqueue that forked it has committed or rolled back.
  const outside = yield* Effect.runtime<never>()

  const announceOnCommit = (ids: ReadonlyArray<Job.JobId>) =>
    Effect.sync(() => {
      if (ids.length === 0) return
      Runtime.runFork(outside)(
        Effect.flatMap(
          state.write(() => [ids.some((id) => entries.has(id)), noUndo]),
          (committed) => (committed ? PubSub.publish(signals, undefined) : Effect.void)
        )
      )
    })

  const replace = (entry: Entry): (() => void) => {
    const undos = [setEntry(entries, entry.job.id, entry)]
    if (Option.isSome(entry.deduplicationKey)) {
      const key = keyOf(entry.job.kind, entry.deduplicationKey.value)
      if (!unfinished(entry) && unfinishedKeys.get(key) === entry.job.id) undos.push(removeEntry(unfinishedKeys, key))
    }
    return undoAll(undos)
  }

  const enqueueAll = (all: ReadonlyArray<Job.NewJob>) =>
    Effect.gen(function* () {
      if (all.length === 0) return
      const now = yield* DateTime.now
      const shift = yield* PlatformTime.offset
      const ids = yield* state.write(() => {
        const undos: Array<() => void> = []
        const inserted: Array<Job.JobId> = []
        for (const request of all) {
          const key = request.deduplicationKey === undefined ? undefined : keyOf(request.kind, request.deduplicationKey)
          if (key !== undefined && unfinishedKeys.has(key)) continue
          const job = new Job.Job({
            id: Job.JobId.make(ResourceId.format("Job", globalThis.crypto.randomUUID())),
            kind: request.kind,
            payload: request.payload,
            ...(request.platformId === undefined ? {} : { platformId: request.platformId }),
            status: "PENDING",
            dueAt: realDueAt(request.dueAt, request.platformId, shift),
            attempts: 0,
            createdAt: now,
            updatedAt: now
          })
          undos.push(
            setEntry(entries, job.id, {
              job,
              lease: Option.none(),
              deduplicationKey: Option.fromNullable(request.deduplicationKey)
            })
          )
          if (key !== undefined) undos.push(setEntry(unfinishedKeys, key, job.id))
          inserted.push(job.id)
        }
        return [inserted, undoAll(undos)]
      })
      yield* announceOnCommit(ids)
    })

  // Applies `change` to the job `claimed` holds, when it still holds it; answers whether it did.
  const settle = (claimed: Job.ClaimedJob, change: (entry: Entry, now: DateTime.Utc) => Entry) =>
    Effect.flatMap(DateTime.now, (now) =>
      state.write(() => {
        const entry = entries.get(claimed.job.id)
        const held =
          entry !== undefined &&
          entry.job.status === "RUNNING" &&
          Option.isSome(entry.lease) &&
          entry.lease.value.token === claimed.leaseToken
        return held ? [true, replace(change(entry, now))] : [false, noUndo]
      })
    )

  const settled = (entry: Entry, now: DateTime.Utc, fields: Partial<Job.Job>): Entry => ({
    ...entry,
    lease: Option.none(),
    job: new Job.Job({ ...entry.job, ...fields, updatedAt: now })
  })

  return Jobs.Jobs.of({
    enqueue: (job) => enqueueAll([job]),
    enqueueAll,
    claim: ({ lease, limit, now }) =>
      state.write(() => {
        const due = Array.from(entries.values())
          .filter(({ job, lease }) =>
            job.status === "PENDING"
              ? DateTime.lessThanOrEqualTo(job.dueAt, now)
              : job.status === "RUNNING" &&
                Option.isSome(lease) &&
                DateTime.lessThanOrEqualTo(lease.value.expiresAt, now)
          )
          .sort((a, b) => DateTime.toEpochMillis(a.job.dueAt) - DateTime.toEpochMillis(b.job.dueAt))
          .slice(0, Math.max(0, limit))
        const leaseExpiresAt = DateTime.addDuration(now, lease)
        const claimed = due.map((entry): Job.ClaimedJob => ({
          job: new Job.Job({ ...entry.job, status: "RUNNING", attempts: entry.job.attempts + 1, updatedAt: now }),
          leaseToken: globalThis.crypto.randomUUID(),
          leaseExpiresAt,
          clockOffset: clockOffsetOf(entry.job)
        }))
        const undos = claimed.map(({ job, leaseExpiresAt, leaseToken }) => {
          const entry = entries.get(job.id)
          return entry === undefined
            ? noUndo
            : replace({ ...entry, job, lease: Option.some({ token: leaseToken, expiresAt: leaseExpiresAt }) })
        })
        return [claimed, undoAll(undos)]
      }),
    complete: (claimed) => settle(claimed, (entry, now) => settled(entry, now, { status: "DONE" })),
    completeAll: (all) =>
      Effect.map(
        Effect.forEach(all, (claimed) =>
          Effect.map(
            settle(claimed, (entry, now) => settled(entry, now, { status: "DONE" })),
            (held) => (held ? Option.some(claimed.job.id) : Option.none())
          )
        ),
        Arr.getSomes
      ),
    retry: (claimed, { dueAt, error }) =>
      Effect.flatMap(PlatformTime.offset, (shift) =>
        settle(claimed, (entry, now) =>
          settled(entry, now, {
            status: "PENDING",
            dueAt: realDueAt(dueAt, entry.job.platformId, shift),
            lastError: error
          })
        )
      ),
    bury: (claimed, error) =>
      settle(claimed, (entry, now) => settled(entry, now, { status: "DEAD", lastError: error })),
    release: (claimed) =>
      settle(claimed, (entry, now) =>
        settled(entry, now, { status: "PENDING", attempts: Math.max(0, entry.job.attempts - 1) })
      ),
    shiftPlatform: (platformId, by) =>
      Effect.flatMap(
        state.write(() => {
          const undos: Array<() => void> = []
          const shifted: Array<Job.JobId> = []
          for (const entry of entries.values()) {
            if (entry.job.platformId !== platformId || entry.job.status !== "PENDING") continue
            const dueAt = DateTime.subtractDuration(entry.job.dueAt, by)
            undos.push(replace({ ...entry, job: new Job.Job({ ...entry.job, dueAt }) }))
            shifted.push(entry.job.id)
          }
          return [shifted, undoAll(undos)]
        }),
        announceOnCommit
      ),
    nextDueAt: Effect.sync(() => {
      let earliest: Option.Option<DateTime.Utc> = Option.none()
      for (const { job, lease } of entries.values()) {
        const at =
          job.status === "PENDING"
            ? Option.some(job.dueAt)
            : job.status === "RUNNING"
              ? Option.map(lease, ({ expiresAt }) => expiresAt)
              : Option.none()
        if (Option.isSome(at) && (Option.isNone(earliest) || DateTime.lessThan(at.value, earliest.value))) {
          earliest = at
        }
      }
      return earliest
    }),
    findById: (id) => Effect.sync(() => Option.map(Option.fromNullable(entries.get(id)), ({ job }) => job)),
    wakeups: Stream.fromPubSub(signals)
  })
})

/** Provides `Jobs` on the store's `MemoryState`. */
export const layer: Layer.Layer<Jobs.Jobs, never, MemoryState> = Layer.effect(Jobs.Jobs, make)
