import { type DateTime, type Duration, Schema } from "effect"
import { PlatformId, ResourceId, SchemaClass } from "../kernel/index.js"

/** `Job:<uuid>`: one durable piece of delayed work. */
export const JobId = ResourceId.make("Job")
export type JobId = typeof JobId.Type

/**
 * Where a job stands. `PENDING` waits for its due time; `RUNNING` is held by a worker's lease (a lease that runs out
 * makes it claimable again); `DONE` finished; `DEAD` failed its last allowed attempt and is kept for operators.
 */
export const JobStatus = Schema.Literal("PENDING", "RUNNING", "DONE", "DEAD")
export type JobStatus = typeof JobStatus.Type

/** The JSON payload a job carries: what its handler needs to find its work again (ids, not whole records). */
export const JobPayload = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export type JobPayload = typeof JobPayload.Type

/** A job as stored. */
export class Job extends SchemaClass.Class<Job>("Job")({
  id: JobId,
  kind: Schema.String,
  payload: JobPayload,
  /** The platform the work belongs to, when it belongs to one (its sandbox clock then applies). */
  platformId: Schema.optional(PlatformId.PlatformId),
  status: JobStatus,
  dueAt: Schema.DateTimeUtc,
  /** Attempts started so far, including a running one. */
  attempts: Schema.Int,
  lastError: Schema.optional(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/** What a caller asks for when it enqueues a job. */
export interface NewJob {
  readonly kind: string
  readonly payload: JobPayload
  readonly dueAt: DateTime.Utc
  readonly platformId?: PlatformId.PlatformId
  /**
   * At most one unfinished job (`PENDING` or `RUNNING`) exists per `(kind, deduplicationKey)`: enqueueing another
   * while one exists changes nothing.
   */
  readonly deduplicationKey?: string
}

/** A job a worker holds: the job as claimed, and the lease that proves the hold. */
export interface ClaimedJob {
  readonly job: Job
  /** Unique per claim: a worker whose lease ran out and was re-claimed by another can no longer settle the job. */
  readonly leaseToken: string
  readonly leaseExpiresAt: DateTime.Utc
  /**
   * How far the clock of the job's platform ran ahead of real time when it was claimed (zero for a job of no
   * platform): the worker runs the job at its platform's time (`PlatformTime.within`).
   */
  readonly clockOffset: Duration.Duration
}
