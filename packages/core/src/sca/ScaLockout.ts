import { DateTime, Duration, Either, Schema } from "effect"
import { AccountLocked } from "./ScaErrors.js"
import { SchemaClass } from "../kernel/index.js"

/**
 * The login-security state of one customer: the cumulative failed SCA attempts, until when the customer is locked
 * out, whether the customer is suspended (locked with no automatic end), and until when its SCA login session lasts.
 * Persisted per customer; a success resets the count.
 */
export class LoginGuard extends SchemaClass.Class<LoginGuard>("LoginGuard")({
  customerId: Schema.String,
  failedAttempts: Schema.Int.pipe(Schema.nonNegative()),
  lockedUntil: Schema.optional(Schema.DateTimeUtc),
  suspended: Schema.Boolean,
  sessionExpiresAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** The state of a customer that never failed. */
export const fresh = (customerId: string): LoginGuard =>
  new LoginGuard({ customerId, failedAttempts: 0, suspended: false })

/** Failures from which a customer is suspended instead of locked for a while. */
export const suspensionThreshold = 9

/**
 * The reference's ladder: how long the `failedAttempts`-th failure locks the customer out. Fewer than 5 failures do
 * not lock; 5 → 15 minutes, 6 → 30 minutes, 7 → 1 hour, 8 → 24 hours; 9 or more suspend (`"suspended"`).
 */
export const lockFor = (failedAttempts: number): Duration.Duration | "none" | "suspended" => {
  if (failedAttempts >= suspensionThreshold) return "suspended"
  switch (failedAttempts) {
    case 5:
      return Duration.minutes(15)
    case 6:
      return Duration.minutes(30)
    case 7:
      return Duration.hours(1)
    case 8:
      return Duration.hours(24)
    default:
      return "none"
  }
}

/** The state after one more failure at `now`: counted, and locked or suspended at each milestone of the ladder. */
export const afterFailure = (guard: LoginGuard, now: DateTime.Utc): LoginGuard => {
  const failedAttempts = guard.failedAttempts + 1
  const lock = lockFor(failedAttempts)
  const { lockedUntil: _previous, ...rest } = guard
  if (lock === "suspended") return new LoginGuard({ ...rest, failedAttempts, suspended: true })
  if (lock === "none") return new LoginGuard({ ...guard, failedAttempts })
  return new LoginGuard({ ...rest, failedAttempts, lockedUntil: DateTime.addDuration(now, lock) })
}

/** The state after a successful proof: no failures, no lock; a suspension stays until a password reset. */
export const afterSuccess = (guard: LoginGuard): LoginGuard => {
  const { lockedUntil: _previous, ...rest } = guard
  return new LoginGuard({ ...rest, failedAttempts: 0 })
}

/** The state after `RESET_PASSWORD_COMPLETED`: no failures, no lock, no suspension, and no SCA session. */
export const afterPasswordReset = (guard: LoginGuard): LoginGuard => fresh(guard.customerId)

/** Whether the customer is locked out at `now`: suspended, or a lock that has not ended. */
export const isLocked = (guard: LoginGuard, now: DateTime.Utc): boolean =>
  guard.suspended || (guard.lockedUntil !== undefined && DateTime.lessThan(now, guard.lockedUntil))

/** Succeeds when the customer may try a proof at `now`; `AccountLocked` (423) with the lock's details otherwise. */
export const check = (guard: LoginGuard, now: DateTime.Utc): Either.Either<void, AccountLocked> =>
  isLocked(guard, now) ? Either.left(AccountLocked.of(guard)) : Either.void

/** The wire view of the state (the reference's `RecordSecurityEventResponse` without its `eventType`). */
export const view = (guard: LoginGuard, now: DateTime.Utc) => ({
  suspended: guard.suspended,
  lockedUntil:
    !guard.suspended && guard.lockedUntil !== undefined && DateTime.lessThan(now, guard.lockedUntil)
      ? guard.lockedUntil
      : null,
  failedAttempts: guard.failedAttempts
})
