import { DateTime, Schema } from "effect"

/** Why an SCA operation does not apply in the state the customer, factor or challenge is in. */
export const ScaConflictRule = Schema.Literal(
  "sca_not_used",
  "no_pending_challenge",
  "challenge_not_resendable",
  "beneficiary_already_trusted",
  "beneficiary_not_trusted"
)
export type ScaConflictRule = typeof ScaConflictRule.Type

const conflictReasons: Record<ScaConflictRule, string> = {
  sca_not_used: "Strong customer authentication is not required for customers of this region",
  no_pending_challenge: "There is no pending SCA challenge to satisfy; start the operation first",
  challenge_not_resendable: "This challenge's factor has no code to re-send",
  beneficiary_already_trusted: "The beneficiary is already trusted",
  beneficiary_not_trusted: "The beneficiary is not trusted"
}

/** What an SCA refusal names, under the name of the request parameter that carried it. */
export const ScaSubject = Schema.Union(
  Schema.Struct({ customerId: Schema.String }),
  Schema.Struct({ quoteId: Schema.String }),
  Schema.Struct({ externalAccountId: Schema.String })
)
export type ScaSubject = typeof ScaSubject.Type

/**
 * The SCA operation does not apply: the customer's region does not use SCA (the reference's 409 for customers
 * outside SCA-regulated regions), or nothing is pending to satisfy. Code `CONFLICT` (409); `details.rule` says which,
 * and the customer, quote or external account is named as the request named it.
 */
export class ScaConflict extends Schema.TaggedError<ScaConflict>()("ScaConflict", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.extend(Schema.Struct({ rule: ScaConflictRule }), ScaSubject)
}) {
  static of(rule: ScaConflictRule, subject: ScaSubject): ScaConflict {
    return new ScaConflict({ reason: conflictReasons[rule], details: { rule, ...subject } })
  }
}

/** A passkey enrollment was asked for while one is enrolled (one passkey per customer). Code `PASSKEY_ALREADY_ENROLLED` (409). */
export class PasskeyAlreadyEnrolled extends Schema.TaggedError<PasskeyAlreadyEnrolled>()("PasskeyAlreadyEnrolled", {
  code: Schema.tag("PASSKEY_ALREADY_ENROLLED"),
  reason: Schema.String,
  details: Schema.Struct({ customerId: Schema.String })
}) {
  static of(customerId: string): PasskeyAlreadyEnrolled {
    return new PasskeyAlreadyEnrolled({
      reason: "The customer already has a passkey; delete it before enrolling another",
      details: { customerId }
    })
  }
}

/**
 * The customer has no SCA login session, or it expired (or a password reset ended it): complete an SCA login
 * (`/sca/login/start` and `/complete`), then retry. Code `SCA_SESSION_REQUIRED` (409).
 */
export class ScaSessionRequired extends Schema.TaggedError<ScaSessionRequired>()("ScaSessionRequired", {
  code: Schema.tag("SCA_SESSION_REQUIRED"),
  reason: Schema.String,
  details: Schema.Struct({ customerId: Schema.String, sessionExpiredAt: Schema.NullOr(Schema.String) })
}) {
  static of(customerId: string, sessionExpiredAt?: DateTime.Utc): ScaSessionRequired {
    return new ScaSessionRequired({
      reason:
        sessionExpiredAt === undefined
          ? "The customer has no SCA login session; complete an SCA login, then retry"
          : "The customer's SCA login session has expired; complete an SCA login, then retry",
      details: {
        customerId,
        sessionExpiredAt: sessionExpiredAt === undefined ? null : DateTime.formatIso(sessionExpiredAt)
      }
    })
  }
}

/**
 * The customer is locked out after too many failed SCA attempts (the ladder of `ScaLockout`): until
 * `details.lockedUntil`, or with no automatic end when `details.suspended`. Code `ACCOUNT_LOCKED` (423).
 */
export class AccountLocked extends Schema.TaggedError<AccountLocked>()("AccountLocked", {
  code: Schema.tag("ACCOUNT_LOCKED"),
  reason: Schema.String,
  details: Schema.Struct({
    suspended: Schema.Boolean,
    lockedUntil: Schema.NullOr(Schema.String),
    failedAttempts: Schema.Int
  })
}) {
  static of(guard: {
    readonly suspended: boolean
    readonly lockedUntil?: DateTime.Utc | undefined
    readonly failedAttempts: number
  }): AccountLocked {
    const lockedUntil =
      guard.suspended || guard.lockedUntil === undefined ? null : DateTime.formatIso(guard.lockedUntil)
    return new AccountLocked({
      reason: guard.suspended
        ? "The customer's login is suspended after too many failed attempts; a password reset clears it"
        : `The customer's login is locked after too many failed attempts until ${lockedUntil}`,
      details: { suspended: guard.suspended, lockedUntil, failedAttempts: guard.failedAttempts }
    })
  }
}

/** Why a proof or an SCA request was refused. */
export const ScaRefusalRule = Schema.Literal(
  "code_mismatch",
  "challenge_expired",
  "challenge_exhausted",
  "challenge_not_found",
  "factor_not_enrolled",
  "factor_not_allowed",
  "proof_missing",
  "enrollment_not_found",
  "passkey_invalid",
  "reset_not_ready",
  "mobile_required"
)
export type ScaRefusalRule = typeof ScaRefusalRule.Type

const refusalReasons: Record<ScaRefusalRule, string> = {
  code_mismatch: "The code is not the right one",
  challenge_expired: "The challenge has expired; start again",
  challenge_exhausted: "Too many wrong codes; the challenge is void, start again",
  challenge_not_found: "No such challenge is pending for this customer",
  factor_not_enrolled: "The customer has no such factor enrolled",
  factor_not_allowed: "This factor cannot satisfy this challenge",
  proof_missing: "A code (or a passkey assertion with its origin) is required",
  enrollment_not_found: "No pending enrollment matches this secret or credential; start the enrollment again",
  passkey_invalid: "The passkey credential or assertion was not accepted",
  reset_not_ready: "The reset cannot be completed in its current status",
  mobile_required: "An SMS_OTP reset needs the new mobile number"
}

/** The proof or request was refused; never says what the right code is. Code `INVALID_INPUT` (400), `details.rule`. */
export class ScaRefused extends Schema.TaggedError<ScaRefused>()("ScaRefused", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: ScaRefusalRule })
}) {
  static of(rule: ScaRefusalRule): ScaRefused {
    return new ScaRefused({ reason: refusalReasons[rule], details: { rule } })
  }
}

/**
 * No such enrolled factor (`credentialId`) or reset (`resetId`) of this customer, or no such external account
 * (`externalAccountId`). Code `NOT_FOUND` (404); `details` names it under the request's parameter name.
 */
export class ScaNotFound extends Schema.TaggedError<ScaNotFound>()("ScaNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Union(
    Schema.Struct({ credentialId: Schema.String }),
    Schema.Struct({ resetId: Schema.String }),
    Schema.Struct({ externalAccountId: Schema.String })
  )
}) {
  static of(what: "factor" | "reset" | "beneficiary", id: string): ScaNotFound {
    switch (what) {
      case "factor":
        return new ScaNotFound({ reason: "No such enrolled factor for this customer", details: { credentialId: id } })
      case "reset":
        return new ScaNotFound({ reason: "No such factor reset for this customer", details: { resetId: id } })
      case "beneficiary":
        return new ScaNotFound({ reason: "No such external account", details: { externalAccountId: id } })
    }
  }
}

/**
 * No liveness provider serves this platform's environment, so a lost factor cannot be reset: on a production
 * platform, configure a `LivenessCheck` provider. Code `NOT_IMPLEMENTED` (501), `details.rule`.
 */
export class LivenessNotConfigured extends Schema.TaggedError<LivenessNotConfigured>()("LivenessNotConfigured", {
  code: Schema.tag("NOT_IMPLEMENTED"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("liveness_provider_not_configured"), environment: Schema.String })
}) {
  static of(environment: string): LivenessNotConfigured {
    return new LivenessNotConfigured({
      reason: `Factor resets need a liveness check, and no liveness provider is configured for ${environment} platforms`,
      details: { rule: "liveness_provider_not_configured", environment }
    })
  }
}

/**
 * The external account is a trusted beneficiary, so it cannot be deleted: untrust it first (`/untrust` and its
 * `/confirm`). Code `BENEFICIARY_TRUSTED` (409).
 */
export class BeneficiaryTrusted extends Schema.TaggedError<BeneficiaryTrusted>()("BeneficiaryTrusted", {
  code: Schema.tag("BENEFICIARY_TRUSTED"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {
  static of(accountId: string): BeneficiaryTrusted {
    return new BeneficiaryTrusted({
      reason: "The external account is a trusted beneficiary; untrust it before deleting it",
      details: { accountId }
    })
  }
}
