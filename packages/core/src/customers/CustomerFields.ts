import { Schema } from "effect"
import { Address as PostalAddress, CountryCode, FieldFormat } from "@payrail/account-formats"
import { businessFields } from "./DueDiligence.js"

/** `INDIVIDUAL` customers go through KYC, `BUSINESS` customers through KYB. */
export const CustomerType = Schema.Literal("INDIVIDUAL", "BUSINESS")
export type CustomerType = typeof CustomerType.Type

/** Kind of the tax identifier given in `identifier`. */
export const IdType = Schema.Literal("SSN", "ITIN", "EIN", "NON_US_TAX_ID")
export type IdType = typeof IdType.Type

/** A postal address (the account-formats schema, shared with beneficiaries). */
export const Address = PostalAddress.Address
export type Address = PostalAddress.Address

/**
 * What is known of a business customer. `legalName` is required; the sandbox decides KYB by `registrationNumber`.
 * The due-diligence fields (`DueDiligence.businessFields`) are optional.
 */
export const BusinessInfo = Schema.Struct({
  legalName: FieldFormat.Text(255),
  doingBusinessAs: Schema.optional(FieldFormat.Text(255)),
  registrationNumber: Schema.optional(FieldFormat.Text(64)),
  taxId: Schema.optional(FieldFormat.Text(64)),
  country: Schema.optional(CountryCode.CountryCode),
  incorporatedOn: Schema.optional(FieldFormat.CalendarDate),
  entityType: Schema.optional(FieldFormat.Text(100)),
  ...businessFields
}).annotations({ identifier: "BusinessInfo" })
export type BusinessInfo = typeof BusinessInfo.Type
