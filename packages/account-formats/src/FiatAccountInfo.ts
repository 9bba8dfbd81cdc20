import { Schema } from "effect"
import {
  AccountNumber,
  BankAccountType,
  BankName,
  digitsAccountNumber,
  FiToFiInformation,
  UpiAddress,
  UsAccountNumber
} from "./AccountFields.js"
import {
  AbaRoutingNumber,
  CanadianInstitutionNumber,
  CanadianTransitNumber,
  Clabe,
  Iban,
  Ifsc,
  SwiftBic,
  UkAccountNumber,
  UkSortCode
} from "./BankIdentifier.js"
import * as Beneficiary from "./Beneficiary.js"
import { CountryCode } from "./CountryCode.js"
import { fiat, oneOf, optional } from "./internal/fiatShape.js"
import * as IbanAccounts from "./IbanAccountInfo.js"
import * as LocalBank from "./LocalBankAccountInfo.js"
import * as MobileMoney from "./MobileMoneyAccountInfo.js"
import { BrazilianTaxId, isPixKeyOf, PixKey, PixKeyType } from "./PixKey.js"

/**
 * The fiat `accountInfo` shapes of the national schemes with their own identifiers (US ABA, Canadian transit, UK
 * sort code, Mexican CLABE, Brazilian Pix, Indian UPI/IFSC) and of international wires (SWIFT), plus the union of
 * every fiat shape: these, the IBAN shapes (`IbanAccountInfo`), the local bank shapes (`LocalBankAccountInfo`) and
 * the mobile-money shapes (`MobileMoneyAccountInfo`). Each has the currency-specific fields and a required
 * `beneficiary` (the currency's individual shape or the shared business shape). Fields follow the public Grid API.
 * Rules spanning fields are reported at the `accountInfo` path, after every field is valid.
 */

const { Individual } = Beneficiary

/** `BRL_ACCOUNT`: a Pix key of the declared kind and the holder's CPF or CNPJ. */
export const Brl = fiat(
  "BRL_ACCOUNT",
  { pixKey: PixKey, pixKeyType: PixKeyType, taxId: BrazilianTaxId },
  Individual
).pipe(
  Schema.filter((account) => isPixKeyOf(account.pixKeyType, account.pixKey), {
    description: "an account whose pixKey has the form its pixKeyType names"
  }),
  Schema.annotations({ identifier: "BrlAccountInfo" })
)

/** `CAD_ACCOUNT`: institution number (3 digits), transit number (5 digits), account number (7-12 digits). */
export const Cad = fiat(
  "CAD_ACCOUNT",
  {
    bankCode: CanadianInstitutionNumber,
    branchCode: CanadianTransitNumber,
    accountNumber: digitsAccountNumber(7, 12)
  },
  Beneficiary.IndividualWithRegistration
).annotations({ identifier: "CadAccountInfo" })

/** `GBP_ACCOUNT`: sort code (6 digits) and account number (8 digits). */
export const Gbp = fiat(
  "GBP_ACCOUNT",
  { sortCode: UkSortCode, accountNumber: UkAccountNumber },
  Individual
).annotations({ identifier: "GbpAccountInfo" })

/** The rail an INR payout uses. */
export const InrRail = Schema.Literal("UPI", "NEFT", "RTGS")

/**
 * `INR_ACCOUNT`: a UPI address (`vpa`), or an account number (9-18 digits) with its IFSC for NEFT/RTGS. When `rail`
 * is given it decides which of the two is required.
 */
export const Inr = fiat(
  "INR_ACCOUNT",
  {
    vpa: optional(UpiAddress),
    accountNumber: optional(digitsAccountNumber(9, 18)),
    ifsc: optional(Ifsc),
    rail: optional(InrRail),
    bankName: optional(BankName)
  },
  Individual
).pipe(
  Schema.filter(
    (account) => {
      const upi = account.vpa !== undefined
      const bank = account.accountNumber !== undefined && account.ifsc !== undefined
      return account.rail === undefined ? upi || bank : account.rail === "UPI" ? upi : bank
    },
    { description: "an account with a vpa (UPI) or an accountNumber and ifsc (NEFT, RTGS), as its rail requires" }
  ),
  Schema.annotations({ identifier: "InrAccountInfo" })
)

/** `MXN_ACCOUNT`: an 18-digit CLABE with a valid check digit (SPEI). */
export const Mxn = fiat("MXN_ACCOUNT", { clabeNumber: Clabe }, Individual).annotations({ identifier: "MxnAccountInfo" })

/** `USD_ACCOUNT`: account number (4-17 digits) and ABA routing number, plus optional bank and wire details. */
export const Usd = fiat(
  "USD_ACCOUNT",
  {
    accountNumber: UsAccountNumber,
    routingNumber: AbaRoutingNumber,
    bankName: optional(BankName),
    bankAccountType: optional(BankAccountType),
    intermediaryBankName: optional(BankName),
    intermediaryRoutingNumber: optional(AbaRoutingNumber),
    fiToFiInformation: optional(FiToFiInformation)
  },
  Individual
).annotations({ identifier: "UsdAccountInfo" })

/**
 * `SWIFT_ACCOUNT`: an international wire to a bank in `country` (where the account is held, which may differ from
 * the currency's country), identified by `swiftCode` and an `accountNumber` or an `iban`.
 */
export const Swift = fiat(
  "SWIFT_ACCOUNT",
  {
    country: CountryCode,
    swiftCode: SwiftBic,
    bankName: BankName,
    accountNumber: optional(AccountNumber),
    iban: optional(Iban)
  },
  Individual
).pipe(
  oneOf(["accountNumber", "iban"], "an account with an accountNumber or an iban"),
  Schema.annotations({ identifier: "SwiftAccountInfo" })
)

/** Every fiat `accountInfo` shape, discriminated by `accountType`. */
export const FiatAccountInfo = Schema.Union(
  IbanAccounts.Aed,
  LocalBank.Bdt,
  Brl,
  MobileMoney.Bwp,
  Cad,
  LocalBank.Cop,
  IbanAccounts.Dkk,
  IbanAccounts.Egp,
  IbanAccounts.Eur,
  Gbp,
  LocalBank.Ghs,
  LocalBank.Gtq,
  LocalBank.Hkd,
  MobileMoney.Htg,
  LocalBank.Idr,
  Inr,
  LocalBank.Jmd,
  MobileMoney.Kes,
  MobileMoney.Mwk,
  Mxn,
  LocalBank.Myr,
  LocalBank.Ngn,
  LocalBank.Php,
  LocalBank.Pkr,
  MobileMoney.Rwf,
  LocalBank.Sgd,
  LocalBank.Slv,
  LocalBank.Thb,
  MobileMoney.Tzs,
  MobileMoney.Ugx,
  Usd,
  LocalBank.Vnd,
  MobileMoney.Xaf,
  MobileMoney.Xof,
  LocalBank.Zar,
  MobileMoney.Zmw,
  LocalBank.Cny,
  IbanAccounts.Ils,
  IbanAccounts.Try,
  Swift
)
export type FiatAccountInfo = typeof FiatAccountInfo.Type
