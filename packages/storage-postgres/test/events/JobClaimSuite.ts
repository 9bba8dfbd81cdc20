import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Jobs, type Storage } from "@payrail/core"
import { DateTime, Duration, Effect, type Layer, Queue, Stream } from "effect"

const history = 20_000
const later = 2_000
const due = 3

/**
 * A claim reads the due jobs, not the jobs due later: beside 20,000 finished jobs, with 2,000 due in an hour (as
 * every open quote's expiry is) and 3 due now, claiming fetches about the 3 rows it hands out. Counted with
 * `pg_stat_xact_user_tables` (rows fetched through indexes or read sequentially, before and after the claim in one
 * unit of work), since a plan that filtered the later jobs row by row would still answer the right 3. Registered
 * once per backend. Also: inserts wake workers only for jobs due within `Jobs.wakeHorizon`.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(storage, { timeout: "60 seconds", excludeTestServices: true })(`job claims on ${backend}`, (it) => {
    it.effect("a claim reads the due jobs only, however many are due later", () =>
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const sql = yield* SqlClient.SqlClient
        const now = yield* DateTime.now
        const job = (name: string, dueAt: DateTime.Utc) => ({
          kind: "test.claim-reads",
          payload: { name },
          dueAt,
          deduplicationKey: name
        })
        // A history of finished jobs, and statistics that predate the open ones, as between two runs of autovacuum
        // on a busy table: a plan that relied on them to skip the later jobs would read every one.
        yield* sql`INSERT INTO jobs (id, kind, payload, status, due_at, attempts, created_at, updated_at)
          SELECT 'Job:done-' || n, 'test.claim-reads', '{}', 'DONE', ${DateTime.formatIso(now)}::timestamptz
            - interval '1 hour', 1, now(), now() FROM generate_series(1, ${history}::int) AS n`
        yield* sql`ANALYZE jobs`
        yield* jobs.enqueueAll(
          Array.from({ length: due }, (_, index) => job(`due-${index}`, DateTime.subtract(now, { seconds: 1 })))
        )
        yield* jobs.enqueueAll(
          Array.from({ length: later }, (_, index) => job(`later-${index}`, DateTime.add(now, { hours: 1 })))
        )
        const reads = sql<{
          rows: string
        }>`SELECT (coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0))::text AS rows
          FROM pg_stat_xact_user_tables WHERE relname = 'jobs'`
        const { claimed, read } = yield* sql.withTransaction(
          Effect.gen(function* () {
            const [before] = yield* reads
            const claimed = yield* jobs.claim({ now, lease: Duration.seconds(30), limit: 64 })
            const [after] = yield* reads
            return { claimed, read: Number(after?.rows ?? 0) - Number(before?.rows ?? 0) }
          })
        )
        expect(claimed.map(({ job }) => job.payload["name"]).sort()).toEqual(["due-0", "due-1", "due-2"])
        expect(read).toBeLessThanOrEqual(10 * due)
      })
    )

    it.scoped("wakes workers for a job due within the wake horizon, not for one due after it", () =>
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const received = yield* Queue.unbounded<void>()
        yield* jobs.wakeups.pipe(
          Stream.runForEach(() => Queue.offer(received, undefined)),
          Effect.forkScoped
        )
        const settle = Effect.sleep("300 millis")
        yield* settle
        yield* Queue.takeAll(received)
        // Real time: the store compares due times with its own clock.
        const now = DateTime.unsafeNow()
        const job = (name: string, dueAt: DateTime.Utc) => ({ kind: "test.wake-horizon", payload: { name }, dueAt })
        const horizon = Duration.toSeconds(Jobs.wakeHorizon)
        yield* jobs.enqueue(job("later", DateTime.add(now, { seconds: horizon + 60 })))
        yield* settle
        expect(yield* Queue.size(received)).toBe(0)
        yield* jobs.enqueue(job("soon", DateTime.add(now, { seconds: horizon - 10 })))
        yield* Queue.take(received).pipe(Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => "no wakeup" }))
      })
    )
  })
