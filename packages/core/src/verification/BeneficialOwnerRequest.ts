import { Schema } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"
import { BeneficialOwnerRole } from "./BeneficialOwner.js"
import { Customer, CustomerFields } from "../customers/index.js"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

// The fields of `personalInfo`, as `BeneficialOwner.PersonalInfo` holds them, plus the write-only tax identifier
// (validated as a customer's is).
const person = {
  firstName: FieldFormat.Text(250),
  middleName: FieldFormat.Text(250),
  lastName: FieldFormat.Text(250),
  birthDate: FieldFormat.CalendarDate,
  nationality: CountryCode.CountryCode,
  email: FieldFormat.Email,
  phoneNumber: FieldFormat.PhoneNumber,
  address: CustomerFields.Address,
  idType: CustomerFields.IdType,
  identifier: FieldFormat.UsTaxIdentifier,
  countryOfIssuance: CountryCode.CountryCode
}

/** `personalInfo` of `POST /beneficial-owners`: who the owner is, with the write-only tax `identifier`. */
export const PersonalInfoInput = Schema.Struct({
  firstName: person.firstName,
  middleName: optional(person.middleName),
  lastName: person.lastName,
  birthDate: person.birthDate,
  nationality: person.nationality,
  email: optional(person.email),
  phoneNumber: optional(person.phoneNumber),
  address: person.address,
  idType: person.idType,
  identifier: person.identifier,
  countryOfIssuance: optional(person.countryOfIssuance)
}).annotations({ identifier: "BeneficialOwnerPersonalInfo" })
export type PersonalInfoInput = typeof PersonalInfoInput.Type

/** `personalInfo` of `PATCH /beneficial-owners/{id}`: each field given replaces the stored one, the others stay. */
export const PersonalInfoUpdate = Schema.Struct({
  firstName: optional(person.firstName),
  middleName: optional(person.middleName),
  lastName: optional(person.lastName),
  birthDate: optional(person.birthDate),
  nationality: optional(person.nationality),
  email: optional(person.email),
  phoneNumber: optional(person.phoneNumber),
  address: optional(person.address),
  idType: optional(person.idType),
  identifier: optional(person.identifier),
  countryOfIssuance: optional(person.countryOfIssuance)
}).annotations({ identifier: "BeneficialOwnerPersonalInfoUpdate" })
export type PersonalInfoUpdate = typeof PersonalInfoUpdate.Type

/** What the person is to the business: at least one role, none repeated. */
export const Roles = Schema.NonEmptyArray(BeneficialOwnerRole).pipe(
  Schema.filter((roles) => new Set(roles).size === roles.length, {
    description: "a non-empty set of roles, none repeated",
    message: () => "must not repeat a role"
  })
)

/** The share of the business the person owns, in whole percent from 0 to 100 (the reference's integer). */
export const OwnershipPercentage = Schema.Int.pipe(
  Schema.between(0, 100, { description: "an integer percentage from 0 to 100" })
)

/** Body of `POST /beneficial-owners`. Decoding reports every invalid field and refuses unknown ones. */
export const CreateBeneficialOwnerRequest = Schema.Struct({
  customerId: Customer.CustomerId,
  roles: Roles,
  ownershipPercentage: OwnershipPercentage,
  personalInfo: PersonalInfoInput
}).annotations({
  identifier: "BeneficialOwnerCreateRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type CreateBeneficialOwnerRequest = typeof CreateBeneficialOwnerRequest.Type

/** Body of `PATCH /beneficial-owners/{id}`: every field optional, `personalInfo` itself partial. */
export const UpdateBeneficialOwnerRequest = Schema.Struct({
  roles: optional(Roles),
  ownershipPercentage: optional(OwnershipPercentage),
  personalInfo: optional(PersonalInfoUpdate)
}).annotations({
  identifier: "BeneficialOwnerUpdateRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type UpdateBeneficialOwnerRequest = typeof UpdateBeneficialOwnerRequest.Type
