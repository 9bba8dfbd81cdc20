import { Schema } from "effect"

/** Body of `POST /customers/{id}/verify-email/confirm` and `/verify-phone/confirm`: the 6-digit code received. */
export const ContactVerificationConfirmRequest = Schema.Struct({
  code: Schema.String.pipe(
    Schema.pattern(/^[0-9]{6}$/, { message: () => "must be the 6-digit code that was sent" })
  ).annotations({ description: "The 6-digit code sent to the contact (always `123456` on sandbox platforms)" })
}).annotations({
  identifier: "ContactVerificationConfirmRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type ContactVerificationConfirmRequest = typeof ContactVerificationConfirmRequest.Type
