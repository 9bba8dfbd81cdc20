import { Schema } from "effect"

/** No customer with this id on the caller's platform (customers of other platforms are indistinguishable). */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CustomerNotFound", {
  code: Schema.tag("USER_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ customerId: Schema.String })
}) {
  static of(customerId: string): CustomerNotFound {
    return new CustomerNotFound({ reason: "Customer not found", details: { customerId } })
  }
}

/**
 * Another live customer of the platform already has this UMA address (addresses are compared in lowercase; a deleted
 * customer's address is free again). Code `UMA_ADDRESS_EXISTS` (409).
 */
export class UmaAddressTaken extends Schema.TaggedError<UmaAddressTaken>()("UmaAddressTaken", {
  code: Schema.tag("UMA_ADDRESS_EXISTS"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("uma_address_unique"), umaAddress: Schema.String })
}) {
  static of(umaAddress: string): UmaAddressTaken {
    return new UmaAddressTaken({
      reason: "Another customer of this platform has this UMA address",
      details: { rule: "uma_address_unique", umaAddress }
    })
  }
}

/** Another customer of the platform already has this `platformCustomerId`. Code `CONFLICT` (409). */
export class PlatformCustomerIdTaken extends Schema.TaggedError<PlatformCustomerIdTaken>()("PlatformCustomerIdTaken", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("platform_customer_id_unique"), platformCustomerId: Schema.String })
}) {
  static of(platformCustomerId: string): PlatformCustomerIdTaken {
    return new PlatformCustomerIdTaken({
      reason: "Another customer of this platform has this platformCustomerId",
      details: { rule: "platform_customer_id_unique", platformCustomerId }
    })
  }
}

/**
 * The customer was deleted (`DELETE /customers/{id}`): it still answers reads, but nothing may change it or create
 * resources for it. Code `CUSTOMER_DELETED` (410).
 */
export class CustomerDeleted extends Schema.TaggedError<CustomerDeleted>()("CustomerDeleted", {
  code: Schema.tag("CUSTOMER_DELETED"),
  reason: Schema.String,
  details: Schema.Struct({ customerId: Schema.String })
}) {
  static of(customerId: string): CustomerDeleted {
    return new CustomerDeleted({ reason: "The customer has been deleted", details: { customerId } })
  }
}

/**
 * `endUserTermsConsent.termsVersion` is not the version of the End User Terms this deployment publishes
 * (`GET /customers/end-user-terms`): nothing was created or changed. Code `END_USER_TERMS_VERSION_NOT_FOUND` (400).
 */
export class EndUserTermsVersionNotFound extends Schema.TaggedError<EndUserTermsVersionNotFound>()(
  "EndUserTermsVersionNotFound",
  {
    code: Schema.tag("END_USER_TERMS_VERSION_NOT_FOUND"),
    reason: Schema.String,
    details: Schema.Struct({
      field: Schema.Literal("endUserTermsConsent.termsVersion"),
      termsVersion: Schema.String,
      currentVersion: Schema.String
    })
  }
) {
  static of(termsVersion: string, currentVersion: string): EndUserTermsVersionNotFound {
    return new EndUserTermsVersionNotFound({
      // The reason does not repeat the submitted version (an input); `details.termsVersion` carries it.
      reason: `No such End User Terms version: accept the current version ${currentVersion}`,
      details: { field: "endUserTermsConsent.termsVersion", termsVersion, currentVersion }
    })
  }
}
