import { DateTime, Schema } from "effect"
import { ScaChallenge } from "../payments/index.js"

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
 * A customer's recovery of a lost factor, gated by a liveness check: started `INITIATED` (on sandbox platforms the
 * liveness check passes at once: `LIVENESS_PASSED`), completed once liveness passed, `EXPIRED` when its window closes.
 */
export class FactorReset extends Schema.Class<FactorReset>("FactorReset")({
  id: Schema.String,
  customerId: Schema.String,
  factor: ScaChallenge.ScaFactor,
  status: ResetStatus,
  expiresAt: Schema.DateTimeUtc,
  completedAt: Schema.optional(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc
}) {}

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
