import { Schema } from "effect"
import { ContactVerification } from "./ContactVerification.js"
import { Address, BusinessInfo, IdType } from "./CustomerFields.js"
import { individualFields } from "./DueDiligence.js"
import { EndUserTermsConsent } from "./EndUserTerms.js"
import { UmaAddress } from "./UmaAddress.js"
import { KybStatus, KycStatus } from "./VerificationStatus.js"
import { CountryCode } from "@payrail/account-formats"
import { Currency, ResourceId, SchemaClass } from "../kernel/index.js"

/** `Customer:<uuid>`. */
export const CustomerId = ResourceId.make("Customer")
export type CustomerId = typeof CustomerId.Type

const common = {
  platformCustomerId: Schema.String,
  region: Schema.optional(CountryCode.CountryCode),
  email: Schema.optional(Schema.String),
  phoneNumber: Schema.optional(Schema.String),
  /** Set on every customer created since UMA addresses were introduced; records made before lack it. */
  umaAddress: Schema.optional(UmaAddress),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  isDeleted: Schema.Boolean,
  /** The customer's last acceptance of the End User Terms, as given on create or update. */
  endUserTermsConsent: Schema.optional(EndUserTermsConsent),
  /** Only in regions that verify contacts (`ContactVerification.usesContactVerification`): one status per contact. */
  contactVerification: Schema.optional(ContactVerification),
  /** The currencies the customer transacts in, as the platform last gave them. */
  currencies: Schema.optional(Schema.Array(Currency.CurrencyCode))
}

/**
 * An individual customer as the API returns it. The tax `identifier` is write-only: it is stored but never part
 * of this record, so it cannot leak through responses, events or logs.
 */
export class IndividualCustomer extends SchemaClass.Class<IndividualCustomer>("IndividualCustomer")({
  id: CustomerId,
  customerType: Schema.Literal("INDIVIDUAL"),
  ...common,
  kycStatus: KycStatus,
  fullName: Schema.optional(Schema.String),
  birthDate: Schema.optional(Schema.String),
  nationality: Schema.optional(CountryCode.CountryCode),
  address: Schema.optional(Address),
  idType: Schema.optional(IdType),
  /** The country that issued the (write-only) identifier: US, the only one accepted. */
  countryOfIssuance: Schema.optional(Schema.Literal("US")),
  /** The due-diligence fields (`sourceOfFundsCategories`, `pepStatus`, …), as last given. */
  ...individualFields
}) {}

/** A business customer as the API returns it. */
export class BusinessCustomer extends SchemaClass.Class<BusinessCustomer>("BusinessCustomer")({
  id: CustomerId,
  customerType: Schema.Literal("BUSINESS"),
  ...common,
  kybStatus: KybStatus,
  businessInfo: BusinessInfo,
  address: Schema.optional(Address)
}) {}

/** A customer of a platform, individual or business. */
export const Customer = Schema.Union(IndividualCustomer, BusinessCustomer)
export type Customer = typeof Customer.Type
