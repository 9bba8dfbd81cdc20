import { randomUUID } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type * as Statement from "@effect/sql/Statement"
import { Errors, Job, Jobs, PlatformId, PlatformTime, ResourceId } from "@payrail/core"
import {
  Array as Arr,
  type Context,
  DateTime,
  Duration,
  Effect,
  Layer,
  Option,
  PubSub,
  Schedule,
  Schema,
  type Scope,
  Stream
} from "effect"
import { jsonText } from "../internal/encoding.js"
import * as WriteBehind from "../internal/writeBehind.js"
import { decodeRows } from "../internal/rowDecoding.js"
import { Returned } from "../internal/rows.js"
import * as PgliteClient from "../PgliteClient.js"
import { ClaimedRow, fastClaimedRow, JobRow } from "./internal/jobRows.js"

/** The channel migration 0014 notifies on every insert into `jobs`, when it commits. */
export const channel = "payrail_jobs"

// The row is decoded already: the record's constructor need not validate it again (a claim builds up to 64).
const toJob = (row: typeof JobRow.Type): Job.Job =>
  new Job.Job(
    {
      id: row.id,
      kind: row.kind,
      payload: row.payload,
      ...(row.platform_id === null ? {} : { platformId: row.platform_id }),
      status: row.status,
      dueAt: row.due_at,
      attempts: row.attempts,
      ...(row.last_error === null ? {} : { lastError: row.last_error }),
      createdAt: row.created_at,
      updatedAt: row.updated_at
    },
    { disableValidation: true }
  )

const columns = "id, kind, payload, platform_id, status, due_at, attempts, last_error, created_at, updated_at"

const Settlement = Schema.Struct({
  id: Schema.String,
  token: Schema.String,
  now: Schema.String,
  dueAt: Schema.NullOr(Schema.String),
  /** The due time as given, in the job's platform's time (converted with the platform's offset in SQL). */
  platformDueAt: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String)
})

const iso = DateTime.formatIso

/**
 * `Jobs` on the `jobs` table (migration 0014), with `wakeups` from `wakeups`. Every operation is one statement:
 * `enqueueAll` one multi-row `INSERT … ON CONFLICT DO NOTHING` (de-duplication by the partial unique index),
 * inside a unit of work queued and sent with its other writes (`WriteBehind`, the unit's jobs in one `INSERT`);
 * `claim` one `UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED)`, so concurrent claims, from any number of
 * processes, never hand out one job twice; each settle an `UPDATE` guarded by the lease token, and `completeAll`
 * one for the whole batch. Timestamps are the
 * caller's `Clock` (servers sharing a database should keep their clocks in step).
 */
export const make = (
  wakeups: Stream.Stream<void>
): Effect.Effect<Context.Tag.Service<Jobs.Jobs>, never, SqlClient.SqlClient> =>
  Effect.map(SqlClient.SqlClient, (sql) => {
    // A job of a platform is due at the time it was given in that platform's time, converted to real time with the
    // platform's clock offset as the store has it when the job is inserted (read under a share lock, so a concurrent
    // clock advance either sees the job and shifts it, or waits for it and is seen): a caller whose own reading of the
    // offset went stale while it ran (a clock advanced meanwhile) still gets the right real time. Other jobs convert
    // with the caller's offset (`PlatformTime`).
    // The rows of every job enqueued in one unit of work go in one `INSERT` (sent with the unit's other writes,
    // `WriteBehind`): a de-duplication key repeated among them keeps the first.
    const insertJobs = (rows: ReadonlyArray<Record<string, unknown>>) =>
      WriteBehind.single(
        "jobs",
        sql`INSERT INTO jobs (id, kind, payload, platform_id, status, due_at, attempts, deduplication_key,
            created_at, updated_at)
          SELECT r.id, r.kind, r.payload::jsonb, r.platform_id, 'PENDING',
            COALESCE(
              r.platform_due_at::timestamptz - make_interval(secs => (
                SELECT p.clock_offset_seconds FROM platforms p WHERE p.id = r.platform_id FOR SHARE
              )),
              r.due_at::timestamptz
            ),
            0, r.deduplication_key, r.now::timestamptz, r.now::timestamptz
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id text, kind text, payload text,
            platform_id text, platform_due_at text, due_at text, deduplication_key text, now text)
          ON CONFLICT (kind, deduplication_key) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING`
      )
    const enqueueAll = (jobs: ReadonlyArray<Job.NewJob>) =>
      Effect.gen(function* () {
        if (!Arr.isNonEmptyReadonlyArray(jobs)) return
        const now = iso(yield* DateTime.now)
        const shift = yield* PlatformTime.offset
        const rows = yield* Effect.forEach(jobs, (job) =>
          Effect.map(jsonText(job.payload), (payload) => ({
            id: ResourceId.format("Job", randomUUID()),
            kind: job.kind,
            payload,
            platform_id: job.platformId ?? null,
            platform_due_at: job.platformId === undefined ? null : iso(job.dueAt),
            due_at: iso(DateTime.subtractDuration(job.dueAt, shift)),
            deduplication_key: job.deduplicationKey ?? null,
            now
          }))
        ).pipe(Effect.mapError(Errors.StoreFailure.wrap("jobs.enqueue")))
        yield* WriteBehind.write<never>(sql, {
          operation: "jobs.enqueue",
          steps: insertJobs(rows),
          merge: { key: "jobs", rows, steps: insertJobs }
        })
      })

    // A claim's rows are decoded by `fastClaimedRow` (the schema's decoding was a noticeable part of a webhook
    // drain's CPU), which the schema backs.
    const claimedRows = decodeRows(ClaimedRow, fastClaimedRow)
    const claim = (request: { readonly limit: number; readonly now: string; readonly leaseEnd: string }) => {
      const { leaseEnd, limit, now } = request
      // The inner SELECT locks the due rows it picks and skips rows another claim has locked; the outer UPDATE
      // leases them. A lease that ran out counts as due. A running job was due when it was claimed, so `due_at <=
      // now` holds for every candidate: as the index condition it stops the scan of jobs_claim_idx at now, rather
      // than reading every job due later (each open quote's expiry, webhook retries) on every claim.
      return Effect.flatMap(
        sql`
        UPDATE jobs AS j SET
          status = 'RUNNING',
          attempts = j.attempts + 1,
          lease_token = gen_random_uuid()::text,
          lease_expires_at = ${leaseEnd}::timestamptz,
          updated_at = ${now}::timestamptz
        FROM (
          SELECT id FROM jobs
          WHERE due_at <= ${now}::timestamptz
            AND (status = 'PENDING' OR (status = 'RUNNING' AND lease_expires_at <= ${now}::timestamptz))
          ORDER BY due_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ) AS due
        WHERE j.id = due.id
        RETURNING j.id, j.kind, j.payload, j.platform_id, j.status, j.due_at, j.attempts, j.last_error,
          j.created_at, j.updated_at, j.lease_token, j.lease_expires_at,
          COALESCE((SELECT p.clock_offset_seconds FROM platforms p WHERE p.id = j.platform_id), 0)::float8
            AS clock_offset_seconds`,
        claimedRows
      )
    }

    // One guarded UPDATE per settlement: it applies only while `token` still holds the job.
    const settlement = (
      operation: string,
      change: (request: typeof Settlement.Type) => Statement.Statement<unknown>
    ) => {
      const run = SqlSchema.findAll({ Request: Settlement, Result: Returned, execute: change })
      return (claimed: Job.ClaimedJob, fields: { readonly dueAt?: DateTime.Utc; readonly error?: string } = {}) =>
        Effect.gen(function* () {
          const now = yield* DateTime.now
          const dueAt = fields.dueAt === undefined ? null : iso(yield* PlatformTime.toRealTime(fields.dueAt))
          return yield* run({
            id: claimed.job.id,
            token: claimed.leaseToken,
            now: iso(now),
            dueAt,
            platformDueAt:
              fields.dueAt === undefined || claimed.job.platformId === undefined ? null : iso(fields.dueAt),
            error: fields.error ?? null
          })
        }).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.mapError(Errors.StoreFailure.wrap(operation))
        )
    }

    const complete = settlement(
      "jobs.complete",
      ({ id, now, token }) => sql`UPDATE jobs SET status = 'DONE', lease_token = NULL, lease_expires_at = NULL,
        updated_at = ${now}::timestamptz
        WHERE id = ${id} AND status = 'RUNNING' AND lease_token = ${token} RETURNING id`
    )
    const completeAll = SqlSchema.findAll({
      Request: Schema.Struct({
        ids: Schema.NonEmptyArray(Schema.String),
        tokens: Schema.NonEmptyArray(Schema.String),
        now: Schema.String
      }),
      Result: Schema.Struct({ id: Job.JobId }),
      // Lease tokens are unique per claim: a row matches only the token its own claim set.
      execute: ({ ids, now, tokens }) => sql`UPDATE jobs SET status = 'DONE', lease_token = NULL,
        lease_expires_at = NULL, updated_at = ${now}::timestamptz
        WHERE id IN ${sql.in(ids)} AND status = 'RUNNING' AND lease_token IN ${sql.in(tokens)} RETURNING id`
    })
    const retry = settlement(
      "jobs.retry",
      // As `enqueueAll`: a platform's job is due at the given platform time under the platform's current offset.
      ({ dueAt, error, id, now, platformDueAt, token }) => sql`UPDATE jobs SET status = 'PENDING', lease_token = NULL,
        lease_expires_at = NULL,
        due_at = COALESCE(
          ${platformDueAt}::timestamptz - make_interval(secs => (
            SELECT p.clock_offset_seconds FROM platforms p WHERE p.id = jobs.platform_id FOR SHARE
          )),
          ${dueAt}::timestamptz
        ),
        last_error = ${error}, updated_at = ${now}::timestamptz
        WHERE id = ${id} AND status = 'RUNNING' AND lease_token = ${token} RETURNING id`
    )
    const bury = settlement(
      "jobs.bury",
      ({ error, id, now, token }) => sql`UPDATE jobs SET status = 'DEAD', lease_token = NULL, lease_expires_at = NULL,
        last_error = ${error}, updated_at = ${now}::timestamptz
        WHERE id = ${id} AND status = 'RUNNING' AND lease_token = ${token} RETURNING id`
    )
    const release = settlement(
      "jobs.release",
      ({ id, now, token }) => sql`UPDATE jobs SET status = 'PENDING', lease_token = NULL, lease_expires_at = NULL,
        attempts = GREATEST(attempts - 1, 0), updated_at = ${now}::timestamptz
        WHERE id = ${id} AND status = 'RUNNING' AND lease_token = ${token} RETURNING id`
    )

    // The shift and the wakeup in one statement: the notification is sent when it commits.
    const shiftPlatform = SqlSchema.void({
      Request: Schema.Struct({ platformId: PlatformId.PlatformId, seconds: Schema.Number }),
      execute: ({ platformId, seconds }) => sql`WITH shifted AS (
          UPDATE jobs SET due_at = due_at - ${seconds} * interval '1 second'
          WHERE platform_id = ${platformId} AND status = 'PENDING'
          RETURNING 1
        )
        SELECT pg_notify(${channel}, 'shifted') FROM (SELECT count(*) FROM shifted) AS done`
    })

    const nextDueAt = SqlSchema.single({
      Request: Schema.Void,
      Result: Schema.Struct({ at: Schema.NullOr(Schema.DateTimeUtcFromDate) }),
      execute: () => sql`SELECT LEAST(
          (SELECT due_at FROM jobs WHERE status = 'PENDING' ORDER BY due_at LIMIT 1),
          (SELECT lease_expires_at FROM jobs WHERE status = 'RUNNING' ORDER BY lease_expires_at LIMIT 1)
        ) AS at`
    })

    const findById = SqlSchema.findOne({
      Request: Job.JobId,
      Result: JobRow,
      execute: (id) => sql`SELECT ${sql.literal(columns)} FROM jobs WHERE id = ${id}`
    })

    return Jobs.Jobs.of({
      enqueue: (job) => enqueueAll([job]),
      enqueueAll,
      claim: ({ lease, limit, now }) =>
        claim({ limit, now: iso(now), leaseEnd: iso(DateTime.addDuration(now, lease)) }).pipe(
          Effect.map(
            Arr.map((row): Job.ClaimedJob => ({
              job: toJob(row),
              leaseToken: row.lease_token,
              leaseExpiresAt: row.lease_expires_at,
              clockOffset: Duration.seconds(row.clock_offset_seconds)
            }))
          ),
          Effect.mapError(Errors.StoreFailure.wrap("jobs.claim"))
        ),
      complete: (claimed) => complete(claimed),
      completeAll: (all) =>
        Arr.isNonEmptyReadonlyArray(all)
          ? Effect.flatMap(DateTime.now, (now) =>
              completeAll({
                ids: Arr.map(all, ({ job }) => job.id),
                tokens: Arr.map(all, ({ leaseToken }) => leaseToken),
                now: iso(now)
              })
            ).pipe(Effect.map(Arr.map(({ id }) => id)), Effect.mapError(Errors.StoreFailure.wrap("jobs.completeAll")))
          : Effect.succeed([]),
      retry: (claimed, { dueAt, error }) => retry(claimed, { dueAt, error }),
      bury: (claimed, error) => bury(claimed, { error }),
      release: (claimed) => release(claimed),
      shiftPlatform: (platformId, by) =>
        shiftPlatform({ platformId, seconds: Duration.toSeconds(by) }).pipe(
          Effect.mapError(Errors.StoreFailure.wrap("jobs.shiftPlatform"))
        ),
      nextDueAt: nextDueAt(undefined).pipe(
        Effect.map(({ at }) => Option.fromNullable(at)),
        Effect.mapError(Errors.StoreFailure.wrap("jobs.nextDueAt"))
      ),
      findById: (id) =>
        findById(id).pipe(Effect.map(Option.map(toJob)), Effect.mapError(Errors.StoreFailure.wrap("jobs.findById"))),
      wakeups
    })
  })

// Signals fan out to every subscriber; one kept signal is enough, since a signal only says "look again".
const fanOut = (
  subscribe: (signals: PubSub.PubSub<void>) => Effect.Effect<unknown, never, Scope.Scope>
): Layer.Layer<Jobs.Jobs, never, SqlClient.SqlClient> =>
  Layer.scoped(
    Jobs.Jobs,
    Effect.gen(function* () {
      const signals = yield* PubSub.sliding<void>(1)
      yield* subscribe(signals)
      return yield* make(Stream.fromPubSub(signals))
    })
  )

/**
 * `Jobs` on a bare `SqlClient`, which cannot listen: `wakeups` never emits, so workers find new work only at their
 * idle timeout. For processes that run no worker (a CLI command).
 */
export const layer: Layer.Layer<Jobs.Jobs, never, SqlClient.SqlClient> = Layer.effect(Jobs.Jobs, make(Stream.never))

/**
 * `Jobs` on a PostgreSQL server: the pool's listening connection `LISTEN`s on `payrail_jobs`, so an enqueue
 * committed by any process wakes this one's workers. A listener that fails is re-established with backoff (the
 * workers' idle timeout covers the gap).
 */
export const layerPgClient: Layer.Layer<Jobs.Jobs, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.unwrapEffect(
  Effect.map(PgClient.PgClient, (pg) =>
    fanOut((signals) =>
      pg.listen(channel).pipe(
        Stream.runForEach(() => PubSub.publish(signals, undefined)),
        Effect.tapError((failure) => Effect.logDebug("the jobs listener failed", failure)),
        Effect.retry(
          Schedule.exponential(Duration.millis(100)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(5))))
        ),
        Effect.ignore,
        Effect.forkScoped
      )
    )
  )
)

/** `Jobs` on PGlite: the notification of an enqueue arrives in this process as the statement that commits it ends. */
export const layerPglite: Layer.Layer<Jobs.Jobs, never, PgliteClient.Notifications | SqlClient.SqlClient> =
  Layer.unwrapEffect(
    Effect.map(PgliteClient.Notifications, (notifications) =>
      fanOut((signals) =>
        notifications
          .listen(channel, () => void signals.unsafeOffer(undefined))
          .pipe(
            Effect.tapError((failure) => Effect.logWarning("could not listen for new jobs", failure)),
            Effect.ignore
          )
      )
    )
  )
