import { DateTime, Schema } from "effect"
import { ScaChallenge } from "../payments/index.js"
import type { LivenessOutcome } from "./LivenessCheck.js"
import { SchemaClass } from "../kernel/index.js"

/** The reference's 2FA reset statuses; `COMPLETED`, `REJECTED` and `EXPIRED` are terminal. */
export const ResetStatus = Schema.Literal(
  "INITIATED",
  "PENDING_REVIEW",
  "LIVENESS_PASSED",
  "COMPLETED",
  "REJECTED",
  "EXPIRED"
)
export type ResetStatus = typeof ResetStatus.Type

/** How long a reset can be completed after it started. */
export const windowHours = 24

/**
 * A customer's recovery of a lost factor, gated by a liveness check of the `LivenessCheck` provider (its session id,
 * and the link or token the end user completes it with): started `INITIATED`, `PENDING_REVIEW` while the provider
 * reviews, `LIVENESS_PASSED` or `REJECTED` by its outcome, completed once liveness passed, `EXPIRED` when its window
 * closes.
 */
export class FactorReset extends SchemaClass.Class<FactorReset>("FactorReset")({
  id: Schema.String,
  customerId: Schema.String,
  factor: ScaChallenge.ScaFactor,
  status: ResetStatus,
  expiresAt: Schema.DateTimeUtc,
  completedAt: Schema.optional(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  livenessSessionId: Schema.optional(Schema.String),
  verificationLink: Schema.optional(Schema.String),
  livenessAccessToken: Schema.optional(Schema.String)
}) {}

/** The status a reset waiting for its liveness check takes from the provider's `outcome`; others keep theirs. */
export const afterLiveness = (status: ResetStatus, outcome: LivenessOutcome): ResetStatus => {
  if (status !== "INITIATED" && status !== "PENDING_REVIEW") return status
  switch (outcome) {
    case "PENDING":
      return status
    case "IN_REVIEW":
      return "PENDING_REVIEW"
    case "PASSED":
      return "LIVENESS_PASSED"
    case "FAILED":
      return "REJECTED"
  }
}

/** The status at `now`: a reset not finished when its window closed is `EXPIRED`. */
export const statusAt = (reset: FactorReset, now: DateTime.Utc): ResetStatus =>
  (reset.status === "INITIATED" || reset.status === "PENDING_REVIEW" || reset.status === "LIVENESS_PASSED") &&
  DateTime.greaterThanOrEqualTo(now, reset.expiresAt)
    ? "EXPIRED"
    : reset.status

/** The reference's `TwoFactorResetStatus` view at `now`. */
export const viewOf = (reset: FactorReset, now: DateTime.Utc) => ({
  status: statusAt(reset, now),
  factor: reset.factor,
  // The replacement factor is enrolled afresh through `POST /sca/factors`; an SMS_OTP reset enrolls its number itself.
  enrollmentStatus: reset.factor === "SMS_OTP" ? null : ("PENDING" as const),
  expiresAt: reset.expiresAt,
  completedAt: reset.completedAt ?? null
})
