import { DateTime, Schema } from "effect"
import { AuthMethod } from "../accounts/index.js"
import { SchemaClass } from "../kernel/index.js"

/** Wrong codes an OTP challenge takes before it is void and a new one must be requested. */
export const maxFailedAttempts = 5

/**
 * The open one-time-code challenge of an `EMAIL_OTP` or `SMS_OTP` credential (one per credential; a new challenge
 * replaces the old): the digest of the code (never the code), the sealed private key of its HPKE target, when it
 * was issued and until when it can be answered, and how many wrong answers it took.
 */
export class OtpChallenge extends SchemaClass.Class<OtpChallenge>("OtpChallenge")({
  authMethodId: AuthMethod.AuthMethodId,
  codeDigest: Schema.String,
  sealedTargetKey: Schema.String,
  issuedAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  failedAttempts: Schema.Int.pipe(Schema.nonNegative())
}) {}

/** Whether the challenge can still be answered at `now`. */
export const isOpen = (challenge: OtpChallenge, now: DateTime.Utc): boolean =>
  DateTime.lessThan(now, challenge.expiresAt) && challenge.failedAttempts < maxFailedAttempts
