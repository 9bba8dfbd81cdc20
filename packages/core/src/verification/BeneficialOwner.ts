import { Schema } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"
import { Customer, CustomerFields, VerificationStatus } from "../customers/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `BeneficialOwner:<uuid>`. */
export const BeneficialOwnerId = ResourceId.make("BeneficialOwner")
export type BeneficialOwnerId = typeof BeneficialOwnerId.Type

/** What a person is to the business (the reference's roles). */
export const BeneficialOwnerRole = Schema.Literal(
  "UBO",
  "DIRECTOR",
  "COMPANY_OFFICER",
  "CONTROL_PERSON",
  "TRUSTEE",
  "GENERAL_PARTNER"
)
export type BeneficialOwnerRole = typeof BeneficialOwnerRole.Type

/**
 * Who the owner is, as the API returns it (the reference's `personalInfo`). The tax `identifier` is write-only, as
 * a customer's is: stored apart from this record (see `StoredBeneficialOwner`), so it never reaches a response,
 * an event or a log.
 */
export const PersonalInfo = Schema.Struct({
  firstName: FieldFormat.Text(250),
  middleName: Schema.optional(FieldFormat.Text(250)),
  lastName: FieldFormat.Text(250),
  birthDate: FieldFormat.CalendarDate,
  nationality: CountryCode.CountryCode,
  email: Schema.optional(FieldFormat.Email),
  phoneNumber: Schema.optional(FieldFormat.PhoneNumber),
  address: CustomerFields.Address,
  idType: CustomerFields.IdType,
  countryOfIssuance: Schema.optional(CountryCode.CountryCode)
}).annotations({ identifier: "PersonalInfo" })
export type PersonalInfo = typeof PersonalInfo.Type

/**
 * A beneficial owner (or director, officer, control person...) of a business customer. Its `kycStatus` starts
 * `UNVERIFIED` and resolves with the business's verification; `APPROVED` and `REJECTED` are final.
 */
export class BeneficialOwner extends SchemaClass.Class<BeneficialOwner>("BeneficialOwner")({
  id: BeneficialOwnerId,
  customerId: Customer.CustomerId,
  roles: Schema.NonEmptyArray(BeneficialOwnerRole),
  /** 0-100, in percent. */
  ownershipPercentage: Schema.Number.pipe(Schema.between(0, 100)),
  personalInfo: PersonalInfo,
  kycStatus: VerificationStatus.KycStatus,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}
