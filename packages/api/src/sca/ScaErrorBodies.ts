import { ScaErrors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

const { wire } = ErrorBody

/** 409 `CONFLICT`: the customer's region does not use SCA, or nothing is pending (`details.rule`). */
export const ScaConflictBody = wire(
  ScaErrors.ScaConflict,
  409,
  "SCA does not apply: the customer is outside the SCA regions, or no challenge is pending (details.rule)"
)

/** 409 `PASSKEY_ALREADY_ENROLLED`. */
export const PasskeyAlreadyEnrolledBody = wire(
  ScaErrors.PasskeyAlreadyEnrolled,
  409,
  "The customer already has a passkey; delete it first"
)

/** 423 `ACCOUNT_LOCKED` with `details {suspended, lockedUntil, failedAttempts}`. */
export const AccountLockedBody = wire(
  ScaErrors.AccountLocked,
  423,
  "The customer is locked out (until details.lockedUntil) or suspended after too many failed attempts"
)

/** 400 `INVALID_INPUT`: the proof or request was refused (`details.rule`); the right code is never revealed. */
export const ScaRefusedBody = wire(ScaErrors.ScaRefused, 400, "The proof or request was refused (details.rule)")

/** 404 `NOT_FOUND`: no such factor or reset for this customer, or no such external account. */
export const ScaNotFoundBody = wire(
  ScaErrors.ScaNotFound,
  404,
  "No such factor or reset for this customer, or no such external account"
)

/** 409 `SCA_SESSION_REQUIRED`: the customer's SCA login session is missing or expired; log in, then retry. */
export const ScaSessionRequiredBody = wire(
  ScaErrors.ScaSessionRequired,
  409,
  "The customer's SCA login session is missing or expired: complete an SCA login, then retry"
)

/** 501 `NOT_IMPLEMENTED`: no liveness provider serves the platform's environment, so factor resets are refused. */
export const LivenessNotConfiguredBody = wire(
  ScaErrors.LivenessNotConfigured,
  501,
  "No liveness provider is configured for this platform's environment (details.rule: liveness_provider_not_configured)"
)
