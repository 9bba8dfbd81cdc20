import { Schema } from "effect"
import { CountryCode } from "./CountryCode.js"
import { Address } from "./Address.js"
import { CalendarDate, Email, PhoneNumber, Text } from "./FieldFormat.js"

/**
 * The owner of an external account, discriminated by `beneficiaryType`. Fiat accounts require one; its individual
 * shape varies by currency (which fields are required, a few extra fields), while one business shape serves every
 * currency. Crypto wallets take a smaller optional beneficiary. Shapes follow the public Grid API.
 */

/** Whether the beneficiary is a person or a business. */
export const BeneficiaryType = Schema.Literal("INDIVIDUAL", "BUSINESS")
export type BeneficiaryType = typeof BeneficiaryType.Type

const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

const FullName = Text(255)

const individualFields = {
  beneficiaryType: Schema.Literal("INDIVIDUAL"),
  fullName: FullName,
  birthDate: optional(CalendarDate),
  nationality: optional(CountryCode),
  email: optional(Email),
  phoneNumber: optional(PhoneNumber),
  countryOfResidence: optional(CountryCode),
  address: optional(Address)
}

/**
 * A person, as the spec's USD example shows it: `fullName` (required), `birthDate` (date), `nationality` (country
 * code), `email`, `phoneNumber` (E.164), `countryOfResidence` and `address {line1, line2?, city?, state?,
 * postalCode, country}`. Used by most currencies.
 */
export const Individual = Schema.Struct(individualFields).annotations({ identifier: "IndividualBeneficiary" })
export type Individual = typeof Individual.Type

/** A person whose `address` is required (AED). */
export const IndividualWithAddress = Schema.Struct({ ...individualFields, address: Address }).annotations({
  identifier: "IndividualBeneficiaryWithAddress"
})

/** A person whose `countryOfResidence` is required (EUR). */
export const IndividualWithResidence = Schema.Struct({
  ...individualFields,
  countryOfResidence: CountryCode
}).annotations({ identifier: "IndividualBeneficiaryWithResidence" })

/** A person whose `phoneNumber` and `countryOfResidence` are required (GTQ). */
export const IndividualWithPhoneAndResidence = Schema.Struct({
  ...individualFields,
  phoneNumber: PhoneNumber,
  countryOfResidence: CountryCode
}).annotations({ identifier: "IndividualBeneficiaryWithPhoneAndResidence" })

/** A person whose `phoneNumber` and `address` are required (JMD). */
export const IndividualWithPhoneAndAddress = Schema.Struct({
  ...individualFields,
  phoneNumber: PhoneNumber,
  address: Address
}).annotations({ identifier: "IndividualBeneficiaryWithPhoneAndAddress" })

/** A person with an optional `registrationNumber` (CAD). */
export const IndividualWithRegistration = Schema.Struct({
  ...individualFields,
  registrationNumber: optional(Text(64))
}).annotations({ identifier: "IndividualBeneficiaryWithRegistration" })

/** Colombian identity document kinds: citizen card, foreigner card, identity card, tax number, passport. */
export const ColombianDocumentType = Schema.Literal("CC", "CE", "TI", "NIT", "PP")

/** A person with an optional identity document (COP), which most Colombian banks match against. */
export const IndividualWithDocument = Schema.Struct({
  ...individualFields,
  documentType: optional(ColombianDocumentType),
  documentNumber: optional(Text(50))
}).annotations({ identifier: "IndividualBeneficiaryWithDocument" })

/** A business: `legalName` (required), `registrationNumber`, `taxId`, contact details and `address`. */
export const Business = Schema.Struct({
  beneficiaryType: Schema.Literal("BUSINESS"),
  legalName: Text(255),
  registrationNumber: optional(Text(64)),
  taxId: optional(Text(64)),
  email: optional(Email),
  phoneNumber: optional(PhoneNumber),
  countryOfResidence: optional(CountryCode),
  address: optional(Address)
}).annotations({ identifier: "BusinessBeneficiary" })
export type Business = typeof Business.Type

/** The owner of a crypto wallet when it is a person: `fullName` and `countryOfResidence`, both required. */
export const WalletIndividual = Schema.Struct({
  beneficiaryType: Schema.Literal("INDIVIDUAL"),
  fullName: FullName,
  countryOfResidence: CountryCode
}).annotations({ identifier: "WalletIndividualBeneficiary" })

/** The beneficiary of a fiat account whose individual shape is `individual`: that shape or `Business`. */
export const of = <I extends Schema.Schema.AnyNoContext>(individual: I) => Schema.Union(individual, Business)

/** The beneficiary of a crypto wallet: `WalletIndividual` or `Business`. */
export const WalletBeneficiary = Schema.Union(WalletIndividual, Business).annotations({
  identifier: "WalletBeneficiary"
})

/** The name a rail compares against the account holder: `fullName` of a person, `legalName` of a business. */
export const nameOf = (
  beneficiary: { readonly beneficiaryType: "INDIVIDUAL"; readonly fullName: string } | Business
) => (beneficiary.beneficiaryType === "INDIVIDUAL" ? beneficiary.fullName : beneficiary.legalName)
