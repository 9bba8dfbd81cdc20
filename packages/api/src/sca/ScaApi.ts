import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { EnrolledFactor, FactorReset, JsonObject, ScaChallenge, ScaRequest } from "@payrail/core"
import { CustomersApi } from "../customers/index.js"
import { FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import {
  AccountLockedBody,
  LivenessNotConfiguredBody,
  PasskeyAlreadyEnrolledBody,
  ScaConflictBody,
  ScaNotFoundBody,
  ScaRefusedBody
} from "./ScaErrorBodies.js"

const { reportFieldErrors } = FieldErrorReport

const CustomerQuery = reportFieldErrors(ScaRequest.CustomerQuery)
const regions =
  "Only for customers whose `region` is in the European Economic Area or the United Kingdom; others get 409 `CONFLICT` (`details.rule: sca_not_used`)."

/** `{factors}`: the customer's factors (`SMS_OTP` implicit with a phone number, then enrolled TOTP and passkey). */
export const ScaFactorList = Schema.Struct({ factors: Schema.Array(EnrolledFactor.ScaFactorView) }).annotations({
  identifier: "ScaFactorList"
})

/** What an enrollment start answers, by `type`. */
export const ScaFactorEnrollStart = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("TOTP"),
    secret: Schema.String,
    secretBase32Encoded: Schema.String,
    totpUri: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("PASSKEY"),
    options: JsonObject.JsonObject,
    allowedOrigins: Schema.Array(Schema.String),
    relyingPartyId: Schema.String
  })
).annotations({ identifier: "ScaFactorEnrollStart" })

/** What an enrollment confirmation answers, by `type`. */
export const ScaFactorConfirmResponse = Schema.Union(
  Schema.Struct({ type: Schema.Literal("TOTP"), recoveryCodes: Schema.Array(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("PASSKEY"), factor: EnrolledFactor.ScaFactorView })
).annotations({ identifier: "ScaFactorConfirmResponse" })

/** What a login start answers: the `SMS_OTP` challenge handle and its expiry, or a passkey's WebAuthn options. */
export const ScaLoginStart = Schema.Struct({
  factor: ScaChallenge.ScaFactor,
  challengeId: Schema.optional(Schema.String),
  expiresAt: Schema.optional(Schema.DateTimeUtc),
  passkeyOptions: Schema.optional(JsonObject.JsonObject),
  allowedOrigins: Schema.optional(Schema.Array(Schema.String)),
  relyingPartyId: Schema.optional(Schema.String)
}).annotations({ identifier: "ScaLoginStart" })

/** A completed login: `SUCCESS` and until when the SCA session lasts. */
export const ScaLoginComplete = Schema.Struct({
  status: Schema.String,
  sessionExpiresAt: Schema.DateTimeUtc
}).annotations({ identifier: "ScaLoginComplete" })

/** The customer's login-security state after a recorded event. */
export const RecordSecurityEventResponse = Schema.Struct({
  eventType: ScaRequest.SecurityEventType,
  suspended: Schema.Boolean,
  lockedUntil: Schema.NullOr(Schema.DateTimeUtc),
  failedAttempts: Schema.Int
}).annotations({ identifier: "RecordSecurityEventResponse" })

/** A started reset, answered 201, with what the end user completes its liveness check with (when given). */
export const TwoFactorResetStart = Schema.Struct({
  resetId: Schema.String,
  expiresAt: Schema.DateTimeUtc,
  verificationLink: Schema.optional(Schema.String),
  livenessAccessToken: Schema.optional(Schema.String)
})
  .annotations({ identifier: "TwoFactorResetStart" })
  .annotations(HttpApiSchema.annotations({ status: 201 }))

/** A reset's status. */
export const TwoFactorResetStatus = Schema.Struct({
  status: FactorReset.ResetStatus,
  factor: ScaChallenge.ScaFactor,
  enrollmentStatus: Schema.NullOr(Schema.Literal("PENDING", "COMPLETED")),
  expiresAt: Schema.DateTimeUtc,
  completedAt: Schema.NullOr(Schema.DateTimeUtc)
}).annotations({ identifier: "TwoFactorResetStatus" })

const ResetPath = reportFieldErrors(Schema.Struct({ resetId: Schema.String }))
const FactorPath = reportFieldErrors(Schema.Struct({ credentialId: Schema.String }))

/** Strong customer authentication: factors, logins, security events and factor resets (HTTP Basic). */
export class ScaApi extends HttpApiGroup.make("sca")
  .add(
    HttpApiEndpoint.get("listFactors", "/sca/factors")
      .setUrlParams(CustomerQuery)
      .addSuccess(ScaFactorList)
      .annotate(OpenApi.Summary, "List enrolled SCA factors")
      .annotate(
        OpenApi.Description,
        `The customer's factors: \`SMS_OTP\` when it has a phone number, then its confirmed TOTP and passkey. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("enrollFactor", "/sca/factors")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.EnrollRequest))
      .addSuccess(ScaFactorEnrollStart)
      .addError(PasskeyAlreadyEnrolledBody)
      .annotate(OpenApi.Summary, "Start SCA factor enrollment")
      .annotate(
        OpenApi.Description,
        `Starts enrolling \`TOTP\` (answers the shared secret, base32, and its \`otpauth://\` URI) or \`PASSKEY\` (answers WebAuthn registration options for the platform's relying party; one passkey per customer, 409 \`PASSKEY_ALREADY_ENROLLED\`). \`SMS_OTP\` needs no enrollment. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("confirmFactor", "/sca/factors/confirm")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.ConfirmRequest))
      .addSuccess(ScaFactorConfirmResponse)
      .addError(ScaRefusedBody)
      .annotate(OpenApi.Summary, "Confirm SCA factor enrollment")
      .annotate(
        OpenApi.Description,
        `Confirms a TOTP enrollment with its \`secret\` and the app's first \`code\` (RFC 6238; \`123456\` on sandbox platforms), answering one-time recovery codes, or a passkey with the device's \`credential\` and its \`origin\`. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteFactor", "/sca/factors/:credentialId")
      .setPath(FactorPath)
      .setUrlParams(CustomerQuery)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(ScaNotFoundBody)
      .annotate(OpenApi.Summary, "Delete an enrolled SCA factor")
      .annotate(OpenApi.Description, `Deletes the customer's passkey with this \`credentialId\`. ${regions}`)
  )
  .add(
    HttpApiEndpoint.post("startLogin", "/sca/login/start")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.LoginStartRequest))
      .addSuccess(ScaLoginStart)
      .addError(ScaRefusedBody)
      .annotate(OpenApi.Summary, "Start an SCA login")
      .annotate(
        OpenApi.Description,
        `\`SMS_OTP\` sends a code (valid 5 minutes; \`123456\` on sandbox platforms) and answers its \`challengeId\`; \`TOTP\` answers the factor only; \`PASSKEY\` answers WebAuthn request options (\`passkeyOptions\`, a single-use challenge for the customer's passkey), \`allowedOrigins\` and \`relyingPartyId\`. A factor the customer does not have is 400. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("completeLogin", "/sca/login/complete")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.LoginCompleteRequest))
      .addSuccess(ScaLoginComplete)
      .addError(ScaRefusedBody)
      .addError(AccountLockedBody)
      .annotate(OpenApi.Summary, "Complete an SCA login")
      .annotate(
        OpenApi.Description,
        `Checks the code (with the \`challengeId\` for \`SMS_OTP\`), or the passkey's \`passkeyAssertion\` with its \`origin\`, and opens the SCA session (180 days) that quote authorizations require. Wrong codes climb the lockout ladder: 5 failures lock for 15 minutes, 6 for 30, 7 for an hour, 8 for 24 hours, 9 or more suspend; while locked the answer is 423 \`ACCOUNT_LOCKED\` with \`details {suspended, lockedUntil, failedAttempts}\`. A right code clears the count. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("recordEvent", "/sca/record-event")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.RecordEventRequest))
      .addSuccess(RecordSecurityEventResponse)
      .addError(AccountLockedBody)
      .annotate(OpenApi.Summary, "Record a security event")
      .annotate(
        OpenApi.Description,
        `\`FAILED_LOGIN_ATTEMPT\` counts a failure on the lockout ladder (423 while already locked); \`RESET_PASSWORD_COMPLETED\` clears the count, any lock or suspension, and the SCA session. Answers the resulting state. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.post("startReset", "/sca/factors/reset")
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.ResetStartRequest))
      .addSuccess(TwoFactorResetStart)
      .addError(ScaRefusedBody)
      .addError(Authentication.RateLimitedBody)
      .addError(LivenessNotConfiguredBody)
      .annotate(OpenApi.Summary, "Start a 2FA reset")
      .annotate(
        OpenApi.Description,
        `Starts recovering a lost factor behind a liveness check of the platform's liveness provider, answering its \`verificationLink\` or \`livenessAccessToken\` when it gives one; poll \`GET /sca/factors/reset/{resetId}\` until \`LIVENESS_PASSED\` (or \`REJECTED\`). On sandbox platforms the outcome follows the customer's \`platformCustomerId\`: ending in \`liveness-fail\` it is \`REJECTED\`, in \`liveness-review\` it stays \`PENDING_REVIEW\`, otherwise it passes at once. Without a provider for the platform's environment (a production platform with none configured) the answer is 501 \`NOT_IMPLEMENTED\`. At most 5 resets per customer per 24 hours: 429 \`RATE_LIMITED\` with \`Retry-After\` beyond. ${regions}`
      )
  )
  .add(
    HttpApiEndpoint.get("getReset", "/sca/factors/reset/:resetId")
      .setPath(ResetPath)
      .setUrlParams(CustomerQuery)
      .addSuccess(TwoFactorResetStatus)
      .addError(ScaNotFoundBody)
      .annotate(OpenApi.Summary, "Get 2FA reset status")
  )
  .add(
    HttpApiEndpoint.post("completeReset", "/sca/factors/reset/:resetId/complete")
      .setPath(ResetPath)
      .setUrlParams(CustomerQuery)
      .setPayload(reportFieldErrors(ScaRequest.ResetCompleteRequest))
      .addSuccess(Schema.Void, { status: 204 })
      .addError(ScaNotFoundBody)
      .addError(ScaRefusedBody)
      .annotate(OpenApi.Summary, "Complete a 2FA reset")
      .annotate(
        OpenApi.Description,
        `Once liveness passed: removes the lost factor (an \`SMS_OTP\` reset sets \`mobile\` as the customer's phone number) and clears the lockout. Not ready is 400 \`details.rule: reset_not_ready\`. ${regions}`
      )
  )
  .addError(CustomersApi.CustomerNotFoundBody)
  .addError(CustomersApi.CustomerDeletedBody)
  .addError(ScaConflictBody)
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Strong customer authentication")
  .annotate(
    OpenApi.Description,
    "Strong customer authentication (SCA) for customers of the European Economic Area and the United Kingdom: factors, logins, the lockout ladder and factor resets. See docs/sca.md."
  ) {}
