import { Schema } from "effect"
import { BankName, MobileNumber } from "./AccountFields.js"
import { countryIban, Iban, SwiftBic } from "./BankIdentifier.js"
import * as Beneficiary from "./Beneficiary.js"
import { fiat, oneOf, optional } from "./internal/fiatShape.js"

/**
 * The fiat `accountInfo` shapes identified by an IBAN (checked by mod-97 and the country's length; the
 * country-specific ones also by their BBAN form), each with a required `beneficiary`. Fields follow the public Grid
 * API; `ILS_ACCOUNT` and `TRY_ACCOUNT` follow Grid's later drafts.
 */

const { Individual } = Beneficiary

/** `AED_ACCOUNT`: a UAE IBAN (`AE`, 23 characters) and optional SWIFT code; the beneficiary's address is required. */
export const Aed = fiat(
  "AED_ACCOUNT",
  { iban: countryIban("AE", "[0-9]{19}"), swiftCode: optional(SwiftBic) },
  Beneficiary.IndividualWithAddress
).annotations({ identifier: "AedAccountInfo" })

/** `DKK_ACCOUNT`: a Danish IBAN (`DK`, 18 characters) and optional SWIFT code. */
export const Dkk = fiat(
  "DKK_ACCOUNT",
  { iban: countryIban("DK", "[0-9]{14}"), swiftCode: optional(SwiftBic) },
  Individual
).annotations({ identifier: "DkkAccountInfo" })

/** `EGP_ACCOUNT`: an Egyptian IBAN (`EG`, 29 characters) or an Egyptian mobile number (`+20`, 10 digits). */
export const Egp = fiat(
  "EGP_ACCOUNT",
  {
    iban: optional(countryIban("EG", "[0-9]{25}")),
    bankName: BankName,
    phoneNumber: optional(MobileNumber("20", 10))
  },
  Individual
).pipe(
  oneOf(["iban", "phoneNumber"], "an account with an iban or a phoneNumber"),
  Schema.annotations({ identifier: "EgpAccountInfo" })
)

/** `EUR_ACCOUNT`: an IBAN of any registry country and optional SWIFT code; the beneficiary's residence is required. */
export const Eur = fiat(
  "EUR_ACCOUNT",
  { iban: Iban, swiftCode: optional(SwiftBic) },
  Beneficiary.IndividualWithResidence
).annotations({ identifier: "EurAccountInfo" })

/** `ILS_ACCOUNT`: an Israeli IBAN (`IL`, 23 characters) and the bank. */
export const Ils = fiat(
  "ILS_ACCOUNT",
  { iban: countryIban("IL", "[0-9]{19}"), bankName: BankName },
  Individual
).annotations({ identifier: "IlsAccountInfo" })

/** `TRY_ACCOUNT`: a Turkish IBAN (`TR`, 26 characters) and the bank. */
export const Try = fiat(
  "TRY_ACCOUNT",
  { iban: countryIban("TR", "[0-9A-Z]{22}"), bankName: BankName },
  Individual
).annotations({ identifier: "TryAccountInfo" })
