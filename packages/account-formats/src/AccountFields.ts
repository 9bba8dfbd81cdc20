import { Schema } from "effect"
import { Text } from "./FieldFormat.js"

/**
 * Field schemas shared by the fiat `accountInfo` shapes: account numbers, bank and provider names, account
 * categories, mobile-money phone numbers and the regions of the CFA franc zones. Each carries the `jsonSchema`
 * annotation that becomes the API's `constraint`; messages never contain the value.
 */

const patterned = (pattern: string, description: string, format?: string) =>
  Schema.String.pipe(
    Schema.filter((value) => new RegExp(pattern).test(value), {
      description,
      jsonSchema: format === undefined ? { pattern } : { format, pattern }
    })
  )

/**
 * A bank account number where the country has no fixed form: 1 to 34 letters and digits, single spaces or hyphens
 * allowed between groups.
 */
export const AccountNumber = Schema.String.pipe(
  Schema.maxLength(34, { description: "an account number of at most 34 characters" }),
  Schema.filter((value) => /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/.test(value), {
    description: "an account number of letters and digits",
    jsonSchema: { pattern: "^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$", maxLength: 34 }
  }),
  Schema.annotations({ identifier: "AccountNumber" })
)

/** A numeric account number of `min` to `max` digits (`max` omitted: exactly `min`). */
export const digitsAccountNumber = (min: number, max: number = min) =>
  patterned(
    `^[0-9]{${min === max ? min : `${min},${max}`}}$`,
    min === max ? `an account number of ${min} digits` : `an account number of ${min} to ${max} digits`
  )

/** A US bank account number: 4 to 17 digits (the NACHA DFI account number field holds 17). */
export const UsAccountNumber = digitsAccountNumber(4, 17)

/** The bank's name as the rail knows it (a real provider may require a name from its own list). */
export const BankName = Text(255)

/** The mobile-money operator's name (for example `M-Pesa`, `MTN`). */
export const ProviderName = Text(255)

/** The category of a bank account. */
export const BankAccountType = Schema.Literal("CHECKING", "SAVINGS")
export type BankAccountType = typeof BankAccountType.Type

/** A branch code of `length` digits. */
export const BranchCode = (length: number) => patterned(`^[0-9]{${length}}$`, `a ${length}-digit branch code`)

/**
 * A mobile number of the country with E.164 calling code `callingCode`: `+`, the calling code and exactly
 * `subscriberDigits` digits (a range `[min, max]` where the country's mobile numbers vary in length).
 */
export const MobileNumber = (callingCode: string, subscriberDigits: number | readonly [number, number]) => {
  const count =
    typeof subscriberDigits === "number" ? `${subscriberDigits}` : `${subscriberDigits[0]},${subscriberDigits[1]}`
  return patterned(`^\\+${callingCode}[0-9]{${count}}$`, `a mobile number starting with +${callingCode}`, "e.164")
}

/** A phone number in E.164 form whose country is given by another field (checked by the account shape). */
export const AnyMobileNumber = patterned("^\\+[1-9][0-9]{6,14}$", "a phone number in E.164 format", "e.164")

/** Countries of the Central African CFA franc (XAF) zone served: Cameroon, Republic of the Congo. */
export const XafRegion = Schema.Literal("CM", "CG")
export type XafRegion = typeof XafRegion.Type

/** Countries of the West African CFA franc (XOF) zone served: Benin, Côte d'Ivoire, Senegal, Togo. */
export const XofRegion = Schema.Literal("BJ", "CI", "SN", "TG")
export type XofRegion = typeof XofRegion.Type

/** E.164 calling code of each CFA region; a mobile-money number must start with its region's code. */
export const regionCallingCodes: Readonly<Record<XafRegion | XofRegion, string>> = {
  CM: "237",
  CG: "242",
  BJ: "229",
  CI: "225",
  SN: "221",
  TG: "228"
}

/** Remittance information for the receiving bank (wire `fiToFiInformation`), at most 210 characters. */
export const FiToFiInformation = Text(210)

/** A UPI virtual payment address (`name@handle`), 3 to 255 characters. */
export const UpiAddress = Schema.String.pipe(
  Schema.maxLength(255, { description: "a UPI address of at most 255 characters" }),
  Schema.filter((value) => /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/.test(value), {
    description: "a UPI address of the form name@handle",
    jsonSchema: { format: "upi-vpa", pattern: "^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$", maxLength: 255 }
  }),
  Schema.annotations({ identifier: "UpiAddress" })
)
