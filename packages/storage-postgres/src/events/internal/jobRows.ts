import { Job, PlatformId, ResourceId } from "@payrail/core"
import { Schema } from "effect"
import { columnsOf, dateTimeOf, type FastDecoder, isInt, isOneOf, jsonObjectOf } from "../../internal/rowDecoding.js"

/** A row of `jobs`. */
export const JobRow = Schema.Struct({
  id: Job.JobId,
  kind: Schema.String,
  payload: Job.JobPayload,
  platform_id: Schema.NullOr(PlatformId.PlatformId),
  status: Job.JobStatus,
  due_at: Schema.DateTimeUtcFromDate,
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.DateTimeUtcFromDate,
  updated_at: Schema.DateTimeUtcFromDate
})

/** A row a claim answers: the job with its lease and its platform's clock offset. */
export const ClaimedRow = Schema.Struct({
  ...JobRow.fields,
  lease_token: Schema.String,
  lease_expires_at: Schema.DateTimeUtcFromDate,
  clock_offset_seconds: Schema.Number
})

const isJobId = ResourceId.is("Job")
const isPlatformId = ResourceId.is("Platform")
const isStatus = isOneOf(Job.JobStatus.literals)

/** `ClaimedRow`'s decoding without the schema's interpretation, for the rows of a claim (up to 64 each). */
export const fastClaimedRow: FastDecoder<typeof ClaimedRow.Type> = (row) => {
  const columns = columnsOf(row)
  if (columns === undefined) return undefined
  const { attempts, clock_offset_seconds, id, kind, last_error, lease_token, platform_id, status } = columns
  const payload = jsonObjectOf(columns["payload"])
  const dueAt = dateTimeOf(columns["due_at"])
  const createdAt = dateTimeOf(columns["created_at"])
  const updatedAt = dateTimeOf(columns["updated_at"])
  const leaseExpiresAt = dateTimeOf(columns["lease_expires_at"])
  if (
    !isJobId(id) ||
    typeof kind !== "string" ||
    payload === undefined ||
    !(platform_id === null || isPlatformId(platform_id)) ||
    !isStatus(status) ||
    dueAt === undefined ||
    !isInt(attempts) ||
    !(last_error === null || typeof last_error === "string") ||
    createdAt === undefined ||
    updatedAt === undefined ||
    typeof lease_token !== "string" ||
    leaseExpiresAt === undefined ||
    typeof clock_offset_seconds !== "number"
  ) {
    return undefined
  }
  return {
    id,
    kind,
    payload,
    platform_id,
    status,
    due_at: dueAt,
    attempts,
    last_error,
    created_at: createdAt,
    updated_at: updatedAt,
    lease_token,
    lease_expires_at: leaseExpiresAt,
    clock_offset_seconds
  }
}
