import { Schema } from "effect"
import { Customer } from "../customers/index.js"
import { JsonObject } from "../kernel/index.js"
import { ScaChallenge } from "../payments/index.js"

const code = Schema.optional(
  Schema.NullOr(Schema.String.pipe(Schema.maxLength(64))).annotations({
    description: "The one-time code (SMS or authenticator app); `123456` on sandbox platforms"
  })
)
const passkeyAssertion = Schema.optional(Schema.NullOr(JsonObject.JsonObject))
const origin = Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2048))))

/** `?customerId=`: the customer every `/sca` operation is for. */
export const CustomerQuery = Schema.Struct({ customerId: Customer.CustomerId })

/** Body of `POST /sca/factors`: which opt-in factor to enroll. */
export const EnrollRequest = Schema.Struct({ type: Schema.Literal("TOTP", "PASSKEY") }).annotations({
  identifier: "ScaFactorEnrollRequest"
})
export type EnrollRequest = typeof EnrollRequest.Type

/** Body of `POST /sca/factors/confirm`: the TOTP secret and first code, or the passkey credential and origin. */
export const ConfirmRequest = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("TOTP"),
    secret: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
    code: Schema.String.pipe(Schema.maxLength(64))
  }),
  Schema.Struct({
    type: Schema.Literal("PASSKEY"),
    origin: Schema.String.pipe(Schema.maxLength(2048)),
    credential: JsonObject.JsonObject
  })
).annotations({ identifier: "ScaFactorConfirmRequest" })
export type ConfirmRequest = typeof ConfirmRequest.Type

/** Body of `POST /sca/login/start`. */
export const LoginStartRequest = Schema.Struct({ factor: ScaChallenge.ScaFactor }).annotations({
  identifier: "ScaLoginStartRequest"
})
export type LoginStartRequest = typeof LoginStartRequest.Type

/** Body of `POST /sca/login/complete`: the proof for the started factor. */
export const LoginCompleteRequest = Schema.Struct({
  factor: ScaChallenge.ScaFactor,
  endUserIpAddress: Schema.String.pipe(Schema.maxLength(64)),
  challengeId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(128)))),
  code,
  passkeyAssertion,
  origin
}).annotations({ identifier: "ScaLoginCompleteRequest" })
export type LoginCompleteRequest = typeof LoginCompleteRequest.Type

/** The reference's `ScaAuthorization`: the proof of `POST /quotes/{quoteId}/authorize`. */
export const ScaAuthorization = Schema.Struct({
  code,
  passkeyAssertion,
  origin,
  endUserIpAddress: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(64))))
}).annotations({ identifier: "ScaAuthorization" })
export type ScaAuthorization = typeof ScaAuthorization.Type

/** Body of the trust and untrust confirmations. */
export const TrustConfirmRequest = Schema.Struct({
  challengeId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(128)))),
  code,
  passkeyAssertion,
  origin
}).annotations({ identifier: "BeneficiaryTrustConfirmRequest" })
export type TrustConfirmRequest = typeof TrustConfirmRequest.Type

/** Body of `POST /sca/record-event`. */
export const SecurityEventType = Schema.Literal("RESET_PASSWORD_COMPLETED", "FAILED_LOGIN_ATTEMPT")
export type SecurityEventType = typeof SecurityEventType.Type
export const RecordEventRequest = Schema.Struct({ eventType: SecurityEventType }).annotations({
  identifier: "RecordSecurityEventRequest"
})

/** Body of `POST /sca/factors/reset`. */
export const ResetStartRequest = Schema.Struct({ factor: ScaChallenge.ScaFactor }).annotations({
  identifier: "TwoFactorResetStartRequest"
})

/** Optional body of `POST /sca/factors/reset/{resetId}/complete`: the new mobile number of an `SMS_OTP` reset. */
export const ResetCompleteRequest = Schema.Struct({
  mobile: Schema.optional(
    Schema.Struct({
      countryCode: Schema.String.pipe(Schema.pattern(/^\+[1-9]\d{0,3}$/)),
      number: Schema.String.pipe(Schema.pattern(/^\d{4,14}$/))
    })
  )
}).annotations({ identifier: "TwoFactorResetCompleteRequest" })
export type ResetCompleteRequest = typeof ResetCompleteRequest.Type
