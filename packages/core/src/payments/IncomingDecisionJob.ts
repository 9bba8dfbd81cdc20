import { DateTime, Schema } from "effect"
import type { Job } from "../events/index.js"
import type { PlatformId } from "../kernel/index.js"
import { TransactionId } from "./Transaction.js"

/** The kind of the job that fails a held incoming payment whose platform did not decide by its deadline. */
export const kind = "payments.incoming-decision-deadline"

/** The deadline of the held payment `transactionId`, due at `deadlineAt` (the platform's time); one per payment. */
export const newJob = (
  platformId: PlatformId.PlatformId,
  transactionId: TransactionId,
  deadlineAt: DateTime.Utc
): Job.NewJob => ({
  kind,
  payload: { transactionId, deadlineAt: DateTime.formatIso(deadlineAt) },
  platformId,
  dueAt: deadlineAt,
  deduplicationKey: `decision:${transactionId}`
})

/** The payload of a deadline job. */
export const Payload = Schema.Struct({ transactionId: TransactionId, deadlineAt: Schema.DateTimeUtc })

/** The payload of `job`, if it is a well-formed deadline job. */
export const decodePayload = Schema.decodeUnknownOption(Payload)
