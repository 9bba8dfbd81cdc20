import { Schema } from "effect"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
import { Address, BusinessInfo, IdType } from "./CustomerFields.js"
import { businessFields, individualFields } from "./DueDiligence.js"
import { EndUserTermsConsent } from "./EndUserTerms.js"
import * as UmaAddress from "./UmaAddress.js"
import { Currency } from "../kernel/index.js"
import { CountryCode, FieldFormat } from "@payrail/account-formats"

const contact = {
  region: optional(CountryCode.CountryCode),
  email: optional(FieldFormat.Email),
  phoneNumber: optional(FieldFormat.PhoneNumber),
  /** The customer's acceptance of the End User Terms; its `termsVersion` must be the current version. */
  endUserTermsConsent: optional(EndUserTermsConsent),
  /** The currencies the customer transacts in (the reference's `currencies`); an update replaces the whole list. */
  currencies: optional(Schema.Array(Currency.CurrencyCode))
}

const person = {
  fullName: optional(FieldFormat.Text(255)),
  birthDate: optional(FieldFormat.CalendarDate),
  nationality: optional(CountryCode.CountryCode),
  address: optional(Address),
  idType: optional(IdType),
  identifier: optional(FieldFormat.UsTaxIdentifier),
  /** The country that issued `identifier` (the reference's default, and the only one accepted: SSN and ITIN). */
  countryOfIssuance: optional(
    Schema.Literal("US").annotations({ description: "US: only US identifiers (SSN, ITIN) are accepted" })
  ),
  /** The due-diligence fields; an update replaces each one it gives (a list as a whole). */
  ...individualFields
}

const created = {
  platformCustomerId: optional(FieldFormat.Text(255)),
  /**
   * The customer's UMA address, unique among the platform's live customers and never changed afterwards; generated
   * from the customer's id when absent (`UmaAddress.forCustomer`).
   */
  umaAddress: optional(UmaAddress.FromInput)
}

/**
 * Body of `POST /customers` for an individual. `platformCustomerId` defaults to a generated value, `umaAddress` to
 * one derived from the customer's id.
 */
export const CreateIndividualCustomer = Schema.Struct({
  customerType: Schema.Literal("INDIVIDUAL"),
  ...created,
  ...contact,
  ...person
}).annotations({ identifier: "CreateIndividualCustomer" })

/** Body of `POST /customers` for a business; `businessInfo.legalName` is required. */
export const CreateBusinessCustomer = Schema.Struct({
  customerType: Schema.Literal("BUSINESS"),
  ...created,
  ...contact,
  businessInfo: BusinessInfo,
  address: optional(Address)
}).annotations({ identifier: "CreateBusinessCustomer" })

/** Body of `POST /customers`, discriminated by `customerType`. Decoding reports every invalid field. */
export const CreateCustomerRequest = Schema.Union(CreateIndividualCustomer, CreateBusinessCustomer).annotations({
  identifier: "CreateCustomerRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateCustomerRequest = typeof CreateCustomerRequest.Type

/** Fields of `businessInfo` in a PATCH: each one given replaces the stored value, the others stay. */
export const BusinessInfoUpdate = Schema.Struct({
  legalName: optional(BusinessInfo.fields.legalName),
  doingBusinessAs: optional(BusinessInfo.fields.doingBusinessAs.from),
  registrationNumber: optional(BusinessInfo.fields.registrationNumber.from),
  taxId: optional(BusinessInfo.fields.taxId.from),
  country: optional(BusinessInfo.fields.country.from),
  incorporatedOn: optional(BusinessInfo.fields.incorporatedOn.from),
  entityType: optional(BusinessInfo.fields.entityType.from),
  ...businessFields
}).annotations({ identifier: "BusinessInfoUpdate" })

/** Body of `PATCH /customers/{id}` for an individual: `customerType` must match; given fields replace stored ones. */
export const UpdateIndividualCustomer = Schema.Struct({
  customerType: Schema.Literal("INDIVIDUAL"),
  ...contact,
  ...person
}).annotations({ identifier: "UpdateIndividualCustomer" })

/** Body of `PATCH /customers/{id}` for a business. */
export const UpdateBusinessCustomer = Schema.Struct({
  customerType: Schema.Literal("BUSINESS"),
  ...contact,
  businessInfo: optional(BusinessInfoUpdate),
  address: optional(Address)
}).annotations({ identifier: "UpdateBusinessCustomer" })

/** Body of `PATCH /customers/{id}`, discriminated by `customerType`. Decoding reports every invalid field. */
export const UpdateCustomerRequest = Schema.Union(UpdateIndividualCustomer, UpdateBusinessCustomer).annotations({
  identifier: "UpdateCustomerRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type UpdateCustomerRequest = typeof UpdateCustomerRequest.Type
