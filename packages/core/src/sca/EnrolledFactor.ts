import { type Effect, Schema } from "effect"
import { SchemaClass, Sha256 } from "../kernel/index.js"
import { ScaChallenge } from "../payments/index.js"

/** An opt-in factor's enrollment: started (`PENDING`, waiting for its confirmation) or `ACTIVE`. */
export const EnrollmentStatus = Schema.Literal("PENDING", "ACTIVE")
export type EnrollmentStatus = typeof EnrollmentStatus.Type

/**
 * A `TOTP` or `PASSKEY` factor of one customer (`SMS_OTP` is implicit: the verified phone). A TOTP factor keeps its
 * shared secret (base32) to check codes against; a passkey its credential id, public key (COSE, base64url) and
 * signature counter, and the registration challenge while `PENDING`. A TOTP factor's recovery codes are kept as
 * digests, each usable once in place of a code. `id` is the factor's own handle; a passkey's
 * `credentialId` is what `DELETE /sca/factors/{credentialId}` names.
 */
export class EnrolledFactor extends SchemaClass.Class<EnrolledFactor>("EnrolledFactor")({
  id: Schema.String,
  customerId: Schema.String,
  factor: ScaChallenge.ScaFactor,
  status: EnrollmentStatus,
  secret: Schema.optional(Schema.String),
  credentialId: Schema.optional(Schema.String),
  challenge: Schema.optional(Schema.String),
  publicKey: Schema.optional(Schema.String),
  counter: Schema.optional(Schema.Int),
  /** A TOTP factor's unused recovery codes, each as a salted SHA-256 (never the code). */
  recoveryCodeDigests: Schema.optional(Schema.Array(Schema.String)),
  name: Schema.optional(Schema.String),
  createdAt: Schema.DateTimeUtc
}) {}

/** The reference's `ScaFactorView`: the factor, a passkey's `credentialId`, and its label. */
export const ScaFactorView = Schema.Struct({
  factor: ScaChallenge.ScaFactor,
  credentialId: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
}).annotations({ identifier: "ScaFactorView" })
export type ScaFactorView = typeof ScaFactorView.Type

/** The view of an active factor. */
export const viewOf = (factor: EnrolledFactor): ScaFactorView => ({
  factor: factor.factor,
  ...(factor.credentialId === undefined ? {} : { credentialId: factor.credentialId }),
  ...(factor.name === undefined ? {} : { name: factor.name })
})

/** The stored digest of a recovery code of factor `factorId` (salted by the factor, case-insensitive). */
export const recoveryDigest = (factorId: string, code: string): Effect.Effect<string> =>
  Sha256.hex(`sca-recovery:${factorId}:${code.trim().toUpperCase()}`)
