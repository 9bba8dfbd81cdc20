import { Schema } from "effect"

/** No hosted verification link has this secret. Code `NOT_FOUND` (404); the page says so without any data. */
export class KycLinkNotFound extends Schema.TaggedError<KycLinkNotFound>()("KycLinkNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({})
}) {
  static of(): KycLinkNotFound {
    return new KycLinkNotFound({ reason: "This verification link does not exist", details: {} })
  }
}

/**
 * The hosted verification link can no longer be used: it expired (24 hours after it was created) or the person
 * already submitted through it. Code `KYC_LINK_UNUSABLE` (410).
 */
export class KycLinkUnusable extends Schema.TaggedError<KycLinkUnusable>()("KycLinkUnusable", {
  code: Schema.tag("KYC_LINK_UNUSABLE"),
  reason: Schema.String,
  details: Schema.Struct({ state: Schema.Literal("EXPIRED", "SPENT") })
}) {
  static of(state: "EXPIRED" | "SPENT"): KycLinkUnusable {
    return new KycLinkUnusable({
      reason: state === "EXPIRED" ? "This verification link has expired" : "This verification link was already used",
      details: { state }
    })
  }
}

/**
 * The customer's region verifies contacts and its email or phone is not verified yet: the hosted flow starts only
 * once they are (`POST /customers/{id}/verify-email`, `/verify-phone`). Code `CONTACT_VERIFICATION_INCOMPLETE` (409).
 */
export class ContactVerificationIncomplete extends Schema.TaggedError<ContactVerificationIncomplete>()(
  "ContactVerificationIncomplete",
  {
    code: Schema.tag("CONTACT_VERIFICATION_INCOMPLETE"),
    reason: Schema.String,
    details: Schema.Struct({ unverified: Schema.Array(Schema.Literal("email", "phone")) })
  }
) {
  static of(unverified: ReadonlyArray<"email" | "phone">): ContactVerificationIncomplete {
    return new ContactVerificationIncomplete({
      reason: "The customer's contact details must be verified before the hosted verification flow",
      details: { unverified }
    })
  }
}
