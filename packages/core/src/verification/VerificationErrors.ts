import { Schema } from "effect"
import { VerificationStatus } from "../customers/index.js"

/** No verification with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class VerificationNotFound extends Schema.TaggedError<VerificationNotFound>()("VerificationNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ verificationId: Schema.String })
}) {
  static of(verificationId: string): VerificationNotFound {
    return new VerificationNotFound({ reason: "Verification not found", details: { verificationId } })
  }
}

/**
 * The customer's verification is already decided (`APPROVED` or `REJECTED` are final), so it cannot be submitted
 * again. Code `INVALID_INPUT` (400), `details.rule` `verification_final`.
 */
export class VerificationFinal extends Schema.TaggedError<VerificationFinal>()("VerificationFinal", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("verification_final"),
    customerId: Schema.String,
    status: VerificationStatus.KycStatus
  })
}) {
  static of(customerId: string, status: VerificationStatus.KycStatus): VerificationFinal {
    return new VerificationFinal({
      reason: `The customer's verification is final (${status}); it cannot be submitted again`,
      details: { rule: "verification_final", customerId, status }
    })
  }
}
