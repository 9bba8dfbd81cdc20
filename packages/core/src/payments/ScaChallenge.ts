import { Schema } from "effect"
import { JsonObject } from "../kernel/index.js"

/**
 * A strong customer authentication factor (the reference's `ScaFactor`): `SMS_OTP` (a code sent to the customer's
 * verified phone, needs no enrollment), `TOTP` (an authenticator app, enrolled; never valid for a per-transaction
 * challenge) or `PASSKEY` (a WebAuthn passkey, enrolled).
 */
export const ScaFactor = Schema.Literal("SMS_OTP", "TOTP", "PASSKEY").annotations({ identifier: "ScaFactor" })
export type ScaFactor = typeof ScaFactor.Type

/**
 * The challenge to satisfy now (the reference's `ScaChallenge`), carried by a quote while it is
 * `PENDING_AUTHORIZATION` and by a beneficiary trust start: its `id`, until when it can be authorized, the factor it
 * was issued for and the factors that may satisfy it. When `PASSKEY` is among `availableFactors`, it carries the WebAuthn
 * request options to pass to the device (`passkeyAssertionOptions`, a single-use challenge) and the origins the
 * ceremony may run on (`passkeyAllowedOrigins`). Defined with the quotes (which carry it) so that the SCA
 * context, which builds on payments, can issue it without a cycle.
 */
export const ScaChallenge = Schema.Struct({
  id: Schema.String,
  expiresAt: Schema.DateTimeUtc,
  factor: ScaFactor,
  availableFactors: Schema.Array(ScaFactor),
  purpose: Schema.optional(Schema.String),
  passkeyAssertionOptions: Schema.optional(JsonObject.JsonObject),
  passkeyAllowedOrigins: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "ScaChallenge" })
export type ScaChallenge = typeof ScaChallenge.Type
