import { Schema } from "effect"
import {
  AccountNumber,
  BankAccountType,
  BankName,
  BranchCode,
  digitsAccountNumber,
  MobileNumber
} from "./AccountFields.js"
import { countryIban, SwiftBic } from "./BankIdentifier.js"
import * as Beneficiary from "./Beneficiary.js"
import type { FiatAccountType } from "./PaymentRails.js"
import { fiat, oneOf, optional } from "./internal/fiatShape.js"

/**
 * The fiat `accountInfo` shapes identified by a local account number at a named bank (with a SWIFT code, a branch
 * code or a category where the corridor needs one), each with a required `beneficiary`. Where a currency also pays
 * out to mobile money, the account carries an `accountNumber` or a `phoneNumber`, and a rule on the whole shape
 * (reported at the `accountInfo` path once every field is valid) requires at least one. Fields follow the public
 * Grid API.
 */

const accountOrPhone = oneOf(["accountNumber", "phoneNumber"], "an account with an accountNumber or a phoneNumber")
const { Individual } = Beneficiary

/** `BDT_ACCOUNT`: a bank account (`accountNumber`, `branchCode`, `swiftCode`) or a bKash-style mobile number. */
export const Bdt = fiat(
  "BDT_ACCOUNT",
  {
    accountNumber: optional(AccountNumber),
    bankName: BankName,
    branchCode: optional(BranchCode(5)),
    swiftCode: optional(SwiftBic),
    phoneNumber: optional(MobileNumber("880", 10))
  },
  Individual
).pipe(accountOrPhone, Schema.annotations({ identifier: "BdtAccountInfo" }))

/** `CNY_ACCOUNT`: a bank account or a Chinese mobile number (`+86`, 11 digits). */
export const Cny = fiat(
  "CNY_ACCOUNT",
  {
    accountNumber: optional(AccountNumber),
    bankName: BankName,
    phoneNumber: optional(MobileNumber("86", 11))
  },
  Individual
).pipe(accountOrPhone, Schema.annotations({ identifier: "CnyAccountInfo" }))

/** `COP_ACCOUNT`: a bank account or a Colombian mobile number (`+57`, 10 digits). */
export const Cop = fiat(
  "COP_ACCOUNT",
  {
    accountNumber: optional(AccountNumber),
    bankAccountType: optional(BankAccountType),
    bankName: BankName,
    phoneNumber: optional(MobileNumber("57", 10))
  },
  Beneficiary.IndividualWithDocument
).pipe(accountOrPhone, Schema.annotations({ identifier: "CopAccountInfo" }))

/** `GHS_ACCOUNT`: a bank account or a Ghanaian mobile number (`+233`, 9 digits). */
export const Ghs = fiat(
  "GHS_ACCOUNT",
  {
    accountNumber: optional(AccountNumber),
    bankName: BankName,
    phoneNumber: optional(MobileNumber("233", 9))
  },
  Individual
).pipe(accountOrPhone, Schema.annotations({ identifier: "GhsAccountInfo" }))

/** `GTQ_ACCOUNT`: account number, category and bank; the beneficiary's phone and residence are required. */
export const Gtq = fiat(
  "GTQ_ACCOUNT",
  {
    accountNumber: AccountNumber,
    bankAccountType: BankAccountType,
    bankName: BankName
  },
  Beneficiary.IndividualWithPhoneAndResidence
).annotations({ identifier: "GtqAccountInfo" })

/** `HKD_ACCOUNT`: bank name, account number and SWIFT code. */
export const Hkd = fiat(
  "HKD_ACCOUNT",
  { bankName: BankName, accountNumber: AccountNumber, swiftCode: SwiftBic },
  Individual
).annotations({ identifier: "HkdAccountInfo" })

/** `IDR_ACCOUNT`: bank name, account number, SWIFT code and an Indonesian mobile number (`+62`, 9-12 digits). */
export const Idr = fiat(
  "IDR_ACCOUNT",
  {
    bankName: BankName,
    accountNumber: AccountNumber,
    swiftCode: SwiftBic,
    phoneNumber: MobileNumber("62", [9, 12])
  },
  Individual
).annotations({ identifier: "IdrAccountInfo" })

/** `JMD_ACCOUNT`: account number, branch code (5 digits), category and bank; beneficiary phone and address required. */
export const Jmd = fiat(
  "JMD_ACCOUNT",
  {
    accountNumber: AccountNumber,
    branchCode: BranchCode(5),
    bankAccountType: BankAccountType,
    bankName: BankName
  },
  Beneficiary.IndividualWithPhoneAndAddress
).annotations({ identifier: "JmdAccountInfo" })

const bankWithSwift = <T extends FiatAccountType>(accountType: T, identifier: string) =>
  fiat(accountType, { bankName: BankName, accountNumber: AccountNumber, swiftCode: SwiftBic }, Individual).annotations({
    identifier
  })

/** `MYR_ACCOUNT`: bank name, account number and SWIFT code. */
export const Myr = bankWithSwift("MYR_ACCOUNT", "MyrAccountInfo")

/** `THB_ACCOUNT`: bank name, account number and SWIFT code. */
export const Thb = bankWithSwift("THB_ACCOUNT", "ThbAccountInfo")

/** `VND_ACCOUNT`: bank name, account number and SWIFT code. */
export const Vnd = bankWithSwift("VND_ACCOUNT", "VndAccountInfo")

/** `NGN_ACCOUNT`: a 10-digit NUBAN account number and the bank. */
export const Ngn = fiat(
  "NGN_ACCOUNT",
  { accountNumber: digitsAccountNumber(10), bankName: BankName },
  Individual
).annotations({ identifier: "NgnAccountInfo" })

/** `PHP_ACCOUNT`: the bank and an account number of 8-16 digits. */
export const Php = fiat(
  "PHP_ACCOUNT",
  { bankName: BankName, accountNumber: digitsAccountNumber(8, 16) },
  Individual
).annotations({ identifier: "PhpAccountInfo" })

/** `PKR_ACCOUNT`: an account number, a Pakistani IBAN (`PK`, 24 characters) or a mobile number (`+92`, 10 digits). */
export const Pkr = fiat(
  "PKR_ACCOUNT",
  {
    bankName: BankName,
    accountNumber: optional(AccountNumber),
    iban: optional(countryIban("PK", "[A-Z]{4}[0-9]{16}")),
    phoneNumber: optional(MobileNumber("92", 10))
  },
  Individual
).pipe(
  oneOf(["accountNumber", "iban", "phoneNumber"], "an account with an accountNumber, an iban or a phoneNumber"),
  Schema.annotations({ identifier: "PkrAccountInfo" })
)

/** `SGD_ACCOUNT`: account number and SWIFT code, bank name optional. */
export const Sgd = fiat(
  "SGD_ACCOUNT",
  { bankName: optional(BankName), accountNumber: AccountNumber, swiftCode: SwiftBic },
  Individual
).annotations({ identifier: "SgdAccountInfo" })

/** `SLV_ACCOUNT` (El Salvador, in USD): a bank account or a Salvadoran mobile number (`+503`, 8 digits). */
export const Slv = fiat(
  "SLV_ACCOUNT",
  {
    bankName: optional(BankName),
    accountNumber: optional(AccountNumber),
    bankAccountType: optional(BankAccountType),
    phoneNumber: optional(MobileNumber("503", 8))
  },
  Individual
).pipe(accountOrPhone, Schema.annotations({ identifier: "SlvAccountInfo" }))

/** `ZAR_ACCOUNT`: an account number of 9-13 digits and the bank. */
export const Zar = fiat(
  "ZAR_ACCOUNT",
  { accountNumber: digitsAccountNumber(9, 13), bankName: BankName },
  Individual
).annotations({ identifier: "ZarAccountInfo" })
