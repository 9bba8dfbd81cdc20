import { Schema } from "effect"

/** Why contact verification cannot proceed for this customer. */
export const ContactConflictRule = Schema.Literal(
  "contact_verification_not_used",
  "no_email_to_verify",
  "no_phone_to_verify",
  "contact_already_verified"
)
export type ContactConflictRule = typeof ContactConflictRule.Type

const conflictReasons: Record<ContactConflictRule, string> = {
  contact_verification_not_used: "Customers of this region do not verify their email or phone",
  no_email_to_verify: "The customer has no email to verify",
  no_phone_to_verify: "The customer has no phone number to verify",
  contact_already_verified: "This contact is already verified"
}

/**
 * Contact verification does not apply: the customer's region does not use it, the customer has no such contact,
 * or it is already verified. Code `CONFLICT` (409); `details.rule` says which.
 */
export class ContactVerificationConflict extends Schema.TaggedError<ContactVerificationConflict>()(
  "ContactVerificationConflict",
  {
    code: Schema.tag("CONFLICT"),
    reason: Schema.String,
    details: Schema.Struct({ rule: ContactConflictRule, customerId: Schema.String })
  }
) {
  static of(rule: ContactConflictRule, customerId: string): ContactVerificationConflict {
    return new ContactVerificationConflict({ reason: conflictReasons[rule], details: { rule, customerId } })
  }
}

/** Why a confirmation code was refused. */
export const ContactCodeRule = Schema.Literal(
  "contact_code_mismatch",
  "contact_code_expired",
  "contact_code_attempts_exhausted",
  "contact_code_not_requested"
)
export type ContactCodeRule = typeof ContactCodeRule.Type

const codeReasons: Record<ContactCodeRule, string> = {
  contact_code_mismatch: "The code is not the one sent",
  contact_code_expired: "The code has expired; request a new one",
  contact_code_attempts_exhausted: "Too many wrong codes; request a new one",
  contact_code_not_requested: "No code is outstanding for this contact; request one first"
}

/**
 * The confirmation code was refused: wrong, expired, voided by too many wrong codes, or never sent (or sent to a
 * contact the customer no longer has). Never says what the right code is. Code `INVALID_INPUT` (400).
 */
export class ContactCodeRefused extends Schema.TaggedError<ContactCodeRefused>()("ContactCodeRefused", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: ContactCodeRule })
}) {
  static of(rule: ContactCodeRule): ContactCodeRefused {
    return new ContactCodeRefused({ reason: codeReasons[rule], details: { rule } })
  }
}
