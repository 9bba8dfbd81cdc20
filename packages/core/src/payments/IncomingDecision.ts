import { DateTime, Duration, Schema } from "effect"
import { JsonObject, SchemaClass } from "../kernel/index.js"
import { TransactionId } from "./Transaction.js"

/**
 * Where the platform's decision on a held incoming payment stands: `AWAITING` until the platform approves or rejects
 * it (by its webhook reply or through the API), or until the deadline passes (`TIMED_OUT`). Every status but
 * `AWAITING` is final: a payment is decided once.
 */
export const IncomingDecisionStatus = Schema.Literal("AWAITING", "APPROVED", "REJECTED", "TIMED_OUT")
export type IncomingDecisionStatus = typeof IncomingDecisionStatus.Type

/** Who decided: the platform's reply to the `INCOMING_PAYMENT` webhook, an API call, or the deadline. */
export const DecidedBy = Schema.Literal("WEBHOOK", "API", "DEADLINE")
export type DecidedBy = typeof DecidedBy.Type

/**
 * An incoming payment held `PENDING` for its platform's decision (docs/incoming-approvals.md): the transaction it
 * holds, the deadline after which it fails with `PAYMENT_APPROVAL_TIMED_OUT`, and, once decided, by whom, when and
 * with what (a rejection's `reason`, an approval's `receiverCustomerInfo`).
 */
export class IncomingDecision extends SchemaClass.Class<IncomingDecision>("IncomingDecision")({
  transactionId: TransactionId,
  status: IncomingDecisionStatus,
  deadlineAt: Schema.DateTimeUtc,
  decidedBy: Schema.optional(DecidedBy),
  decidedAt: Schema.optional(Schema.DateTimeUtc),
  reason: Schema.optional(Schema.String),
  receiverCustomerInfo: Schema.optional(JsonObject.JsonObject),
  createdAt: Schema.DateTimeUtc
}) {}

/**
 * How long the platform's webhook receiver has to answer the `INCOMING_PAYMENT` webhook of a held payment for its
 * reply to decide it (the reference's 5 seconds); a later or missing reply leaves the decision to the API.
 */
export const replyWindow: Duration.Duration = Duration.seconds(5)

/**
 * How long after its arrival a held payment waits for the API's decision before it fails with
 * `PAYMENT_APPROVAL_TIMED_OUT` and its pending credit is released (docs/incoming-approvals.md says why 5 minutes).
 */
export const deadline: Duration.Duration = Duration.minutes(5)

/** The decision of `transactionId`, awaiting since `now`, due by `now + deadline`. */
export const awaiting = (transactionId: TransactionId, now: DateTime.Utc): IncomingDecision =>
  new IncomingDecision({
    transactionId,
    status: "AWAITING",
    deadlineAt: DateTime.addDuration(now, deadline),
    createdAt: now
  })

/** Whether the decision's deadline has come at `now` (the deadline itself is too late). */
export const isLate = (decision: IncomingDecision, now: DateTime.Utc): boolean =>
  !DateTime.lessThan(now, decision.deadlineAt)
