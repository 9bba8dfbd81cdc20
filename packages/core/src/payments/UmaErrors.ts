import { Schema } from "effect"

/**
 * An UMA address that is not `$<username>@<domain>` (after URL decoding and lowercasing; the `$` may be left out).
 * Code `INVALID_UMA_ADDRESS` (400), naming the field or parameter that carried it (not repeating the value).
 */
export class InvalidUmaAddress extends Schema.TaggedError<InvalidUmaAddress>()("InvalidUmaAddress", {
  code: Schema.tag("INVALID_UMA_ADDRESS"),
  reason: Schema.String,
  details: Schema.Struct({ field: Schema.String })
}) {
  static of(field: string): InvalidUmaAddress {
    return new InvalidUmaAddress({
      reason: `${field} is not an UMA address: expected $<username>@<domain>`,
      details: { field }
    })
  }
}

/**
 * No receiver answers at this UMA address: on the platform's own UMA domain no customer has it, or the counterparty
 * does not know the user. Code `UMA_NOT_FOUND` (404).
 */
export class UmaNotFound extends Schema.TaggedError<UmaNotFound>()("UmaNotFound", {
  code: Schema.tag("UMA_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ receiverUmaAddress: Schema.String })
}) {
  static of(receiverUmaAddress: string): UmaNotFound {
    return new UmaNotFound({ reason: "No receiver has this UMA address", details: { receiverUmaAddress } })
  }
}

/** No receiver lookup with this id on the caller's platform. Code `LOOKUP_REQUEST_NOT_FOUND` (404). */
export class LookupNotFound extends Schema.TaggedError<LookupNotFound>()("LookupNotFound", {
  code: Schema.tag("LOOKUP_REQUEST_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ lookupId: Schema.String })
}) {
  static of(lookupId: string): LookupNotFound {
    return new LookupNotFound({ reason: "Receiver lookup not found", details: { lookupId } })
  }
}

/**
 * The receiver's lookup asked for payer data that the quote request does not carry in `senderCustomerInfo`.
 * Code `MISSING_MANDATORY_USER_INFO` (400), listing the missing field names.
 */
export class MissingMandatoryUserInfo extends Schema.TaggedError<MissingMandatoryUserInfo>()(
  "MissingMandatoryUserInfo",
  {
    code: Schema.tag("MISSING_MANDATORY_USER_INFO"),
    reason: Schema.String,
    details: Schema.Struct({ lookupId: Schema.String, missingFields: Schema.Array(Schema.String) })
  }
) {
  static of(lookupId: string, missingFields: ReadonlyArray<string>): MissingMandatoryUserInfo {
    return new MissingMandatoryUserInfo({
      reason: `The receiver requires payer data in senderCustomerInfo: ${missingFields.join(", ")}`,
      details: { lookupId, missingFields }
    })
  }
}

/**
 * The counterparty's UMA service could not be reached or answered something unusable. Code `LOOKUP_REQUEST_FAILED`
 * (400 in the reference's catalogue); a real UMA client reports it, the sandbox never does.
 */
export class UmaLookupFailed extends Schema.TaggedError<UmaLookupFailed>()("UmaLookupFailed", {
  code: Schema.tag("LOOKUP_REQUEST_FAILED"),
  reason: Schema.String,
  details: Schema.Struct({ umaAddress: Schema.String })
}) {
  static of(umaAddress: string, reason: string): UmaLookupFailed {
    return new UmaLookupFailed({ reason, details: { umaAddress } })
  }
}
