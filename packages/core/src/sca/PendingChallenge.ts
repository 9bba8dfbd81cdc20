import { DateTime, Schema } from "effect"
import { JsonObject, SchemaClass } from "../kernel/index.js"
import { ScaChallenge } from "../payments/index.js"

/** What a challenge authorizes: an SCA login, a quote's execution, or trusting or untrusting a beneficiary. */
export const ChallengePurpose = Schema.Literal("LOGIN", "QUOTE", "TRUST", "UNTRUST")
export type ChallengePurpose = typeof ChallengePurpose.Type

/** Wrong codes a challenge takes before it is void. */
export const maxFailedAttempts = 5

/** How long a challenge can be satisfied after it was issued. */
export const lifetimeMinutes = 5

/**
 * An outstanding SCA challenge of one customer: what it authorizes (`purpose` and `subjectId`, the quote or external
 * account; the customer for a login), the factor it was issued for, a salted SHA-256 of its code (`SMS_OTP`; never the
 * code), until when it can be satisfied, how many wrong codes it took, and when its code was last sent. A challenge a
 * passkey may satisfy keeps its WebAuthn challenge (`passkeyChallenge`, whose UTF-8 bytes the assertion must sign) and
 * the request options and origins shown to the device.
 */
export class PendingChallenge extends SchemaClass.Class<PendingChallenge>("PendingChallenge")({
  id: Schema.String,
  customerId: Schema.String,
  purpose: ChallengePurpose,
  subjectId: Schema.String,
  factor: ScaChallenge.ScaFactor,
  availableFactors: Schema.Array(ScaChallenge.ScaFactor),
  codeDigest: Schema.optional(Schema.String),
  expiresAt: Schema.DateTimeUtc,
  failedAttempts: Schema.Int.pipe(Schema.nonNegative()),
  sentAt: Schema.DateTimeUtc,
  passkeyChallenge: Schema.optional(Schema.String),
  passkeyOptions: Schema.optional(JsonObject.JsonObject),
  passkeyAllowedOrigins: Schema.optional(Schema.Array(Schema.String))
}) {}

/** Whether the challenge can still be satisfied at `now`: not expired and not voided by wrong codes. */
export const isOpen = (challenge: PendingChallenge, now: DateTime.Utc): boolean =>
  DateTime.lessThan(now, challenge.expiresAt) && challenge.failedAttempts < maxFailedAttempts

/** The reference's `ScaChallenge` view of it. */
export const viewOf = (challenge: PendingChallenge) => ({
  id: challenge.id,
  expiresAt: challenge.expiresAt,
  factor: challenge.factor,
  availableFactors: challenge.availableFactors,
  ...(challenge.passkeyOptions === undefined ? {} : { passkeyAssertionOptions: challenge.passkeyOptions }),
  ...(challenge.passkeyAllowedOrigins === undefined ? {} : { passkeyAllowedOrigins: challenge.passkeyAllowedOrigins })
})
