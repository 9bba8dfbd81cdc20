import { Schema } from "effect"
import { CountryCode } from "./CountryCode.js"
import { CalendarDate, Text } from "./FieldFormat.js"

/** `INDIVIDUAL` customers go through KYC, `BUSINESS` customers through KYB. */
export const CustomerType = Schema.Literal("INDIVIDUAL", "BUSINESS")
export type CustomerType = typeof CustomerType.Type

/** Kind of the tax identifier given in `identifier`. */
export const IdType = Schema.Literal("SSN", "ITIN", "EIN", "NON_US_TAX_ID")
export type IdType = typeof IdType.Type

/** A postal address; `line1`, `postalCode` and `country` are required. */
export const Address = Schema.Struct({
  line1: Text(255),
  line2: Schema.optional(Text(255)),
  city: Schema.optional(Text(100)),
  state: Schema.optional(Text(100)),
  postalCode: Text(20),
  country: CountryCode
}).annotations({ identifier: "Address" })
export type Address = typeof Address.Type

/** What is known of a business customer. `legalName` is required; the sandbox decides KYB by `registrationNumber`. */
export const BusinessInfo = Schema.Struct({
  legalName: Text(255),
  doingBusinessAs: Schema.optional(Text(255)),
  registrationNumber: Schema.optional(Text(64)),
  taxId: Schema.optional(Text(64)),
  country: Schema.optional(CountryCode),
  incorporatedOn: Schema.optional(CalendarDate),
  entityType: Schema.optional(Text(100))
}).annotations({ identifier: "BusinessInfo" })
export type BusinessInfo = typeof BusinessInfo.Type
