import { Schema } from "effect"
import { CryptoAccountInfo, WalletAccountInfo } from "./CryptoAccountInfo.js"
import { FiatAccountInfo } from "./FiatAccountInfo.js"
import { usernameOf } from "./LightningDestination.js"

/**
 * The `accountInfo` of an external account: one shape per `accountType` of the spec, discriminated by
 * `accountType`. Decoding with `{ errors: "all" }` reports every invalid field with its dot path (under a parent
 * struct: `accountInfo.routingNumber`, `accountInfo.beneficiary.address.postalCode`); rules that span fields (at
 * least one identifier, a Pix key of its kind…) are reported at `accountInfo` once every field is valid.
 */
export const ExternalAccountInfo = Schema.Union(...FiatAccountInfo.members, ...CryptoAccountInfo.members).annotations({
  identifier: "ExternalAccountInfo"
})
export type ExternalAccountInfo = typeof ExternalAccountInfo.Type

/** Every `accountType` the spec lists, in the spec's order. */
export const AccountType = Schema.Literal(
  "AED_ACCOUNT",
  "BDT_ACCOUNT",
  "BRL_ACCOUNT",
  "BWP_ACCOUNT",
  "CAD_ACCOUNT",
  "COP_ACCOUNT",
  "DKK_ACCOUNT",
  "EGP_ACCOUNT",
  "EUR_ACCOUNT",
  "GBP_ACCOUNT",
  "GHS_ACCOUNT",
  "GTQ_ACCOUNT",
  "HKD_ACCOUNT",
  "HTG_ACCOUNT",
  "IDR_ACCOUNT",
  "INR_ACCOUNT",
  "JMD_ACCOUNT",
  "KES_ACCOUNT",
  "MWK_ACCOUNT",
  "MXN_ACCOUNT",
  "MYR_ACCOUNT",
  "NGN_ACCOUNT",
  "PHP_ACCOUNT",
  "PKR_ACCOUNT",
  "RWF_ACCOUNT",
  "SGD_ACCOUNT",
  "SLV_ACCOUNT",
  "THB_ACCOUNT",
  "TZS_ACCOUNT",
  "UGX_ACCOUNT",
  "USD_ACCOUNT",
  "VND_ACCOUNT",
  "XAF_ACCOUNT",
  "XOF_ACCOUNT",
  "ZAR_ACCOUNT",
  "ZMW_ACCOUNT",
  "CNY_ACCOUNT",
  "ILS_ACCOUNT",
  "TRY_ACCOUNT",
  "SWIFT_ACCOUNT",
  "BASE_WALLET",
  "ETHEREUM_WALLET",
  "LIGHTNING",
  "LIGHTNING_ACCOUNT",
  "POLYGON_WALLET",
  "PLASMA_WALLET",
  "ARBITRUM_WALLET",
  "SOLANA_WALLET",
  "SPARK_WALLET",
  "TRON_WALLET"
)
export type AccountType = typeof AccountType.Type

const walletTypes: ReadonlySet<string> = new Set(
  WalletAccountInfo.members.map((member) => member.fields.accountType.literals[0])
)

/** Whether the account type is an on-chain wallet (the types ownership verification applies to when self-custody). */
export const isWalletType = (accountType: AccountType): boolean => walletTypes.has(accountType)

/**
 * Whether the account is a self-custody wallet: an on-chain wallet without `vaspName` (no exchange or other VASP
 * holds it). Lightning destinations and fiat accounts are never self-custody wallets.
 */
export const isSelfCustodyWallet = (info: ExternalAccountInfo): boolean =>
  isWalletType(info.accountType) && !("vaspName" in info && info.vaspName !== undefined)

/**
 * The identifier of the account whose last three characters select sandbox outcomes (transfers, pulls, name
 * verification): the account number, IBAN, CLABE, Pix key, mobile number or wallet address. For identifiers with a
 * domain part (an e-mail Pix key, a UPI address, a Lightning address) it is the user part before `@`. Where a
 * currency accepts several identifiers the bank account number wins, then the IBAN, then the phone number; a
 * Lightning account uses its invoice, offer or address, whichever it has.
 */
export const identifierOf = (info: ExternalAccountInfo): string => {
  switch (info.accountType) {
    case "AED_ACCOUNT":
    case "DKK_ACCOUNT":
    case "EUR_ACCOUNT":
    case "ILS_ACCOUNT":
    case "TRY_ACCOUNT":
      return info.iban
    case "MXN_ACCOUNT":
      return info.clabeNumber
    case "BRL_ACCOUNT":
      return info.pixKeyType === "EMAIL" ? usernameOf(info.pixKey) : info.pixKey
    case "INR_ACCOUNT":
      return info.accountNumber ?? usernameOf(info.vpa ?? "")
    case "EGP_ACCOUNT":
      return info.iban ?? info.phoneNumber ?? ""
    case "PKR_ACCOUNT":
      return info.accountNumber ?? info.iban ?? info.phoneNumber ?? ""
    case "SWIFT_ACCOUNT":
      return info.accountNumber ?? info.iban ?? ""
    case "BDT_ACCOUNT":
    case "CNY_ACCOUNT":
    case "COP_ACCOUNT":
    case "GHS_ACCOUNT":
    case "SLV_ACCOUNT":
      return info.accountNumber ?? info.phoneNumber ?? ""
    case "BWP_ACCOUNT":
    case "HTG_ACCOUNT":
    case "KES_ACCOUNT":
    case "MWK_ACCOUNT":
    case "RWF_ACCOUNT":
    case "TZS_ACCOUNT":
    case "UGX_ACCOUNT":
    case "ZMW_ACCOUNT":
    case "XAF_ACCOUNT":
    case "XOF_ACCOUNT":
      return info.phoneNumber
    case "USD_ACCOUNT":
    case "CAD_ACCOUNT":
    case "GBP_ACCOUNT":
    case "GTQ_ACCOUNT":
    case "HKD_ACCOUNT":
    case "IDR_ACCOUNT":
    case "JMD_ACCOUNT":
    case "MYR_ACCOUNT":
    case "NGN_ACCOUNT":
    case "PHP_ACCOUNT":
    case "SGD_ACCOUNT":
    case "THB_ACCOUNT":
    case "VND_ACCOUNT":
    case "ZAR_ACCOUNT":
      return info.accountNumber
    case "LIGHTNING":
    case "LIGHTNING_ACCOUNT":
      return info.invoice ?? info.bolt12 ?? usernameOf(info.lightningAddress ?? "")
    default:
      return info.address
  }
}

const keyOf = (...parts: ReadonlyArray<string | undefined>): string =>
  parts.filter((part): part is string => part !== undefined).join("/")

/**
 * The key that identifies the destination itself, for "this owner already has this account" checks (unlike
 * `identifierOf`, which keeps only a user part and ignores the bank): the account number with what scopes it (routing
 * number, sort code, institution and transit, IFSC, SWIFT code or bank name), the IBAN, CLABE, Pix key, mobile number,
 * UPI or Lightning address, invoice, offer or wallet address. Case-insensitive identifiers (EVM addresses, e-mail Pix
 * keys, UPI and Lightning addresses, BOLT11/BOLT12) are lower-cased, so two spellings of one destination collide.
 */
export const uniqueKeyOf = (info: ExternalAccountInfo): string => {
  switch (info.accountType) {
    case "USD_ACCOUNT":
      return keyOf(info.routingNumber, info.accountNumber)
    case "CAD_ACCOUNT":
      return keyOf(info.bankCode, info.branchCode, info.accountNumber)
    case "GBP_ACCOUNT":
      return keyOf(info.sortCode, info.accountNumber)
    case "JMD_ACCOUNT":
      return keyOf(info.bankName, info.branchCode, info.accountNumber)
    case "HKD_ACCOUNT":
    case "IDR_ACCOUNT":
    case "MYR_ACCOUNT":
    case "SGD_ACCOUNT":
    case "THB_ACCOUNT":
    case "VND_ACCOUNT":
      return keyOf(info.swiftCode, info.accountNumber)
    case "GTQ_ACCOUNT":
    case "NGN_ACCOUNT":
    case "PHP_ACCOUNT":
    case "ZAR_ACCOUNT":
      return keyOf(info.bankName, info.accountNumber)
    case "BDT_ACCOUNT":
    case "CNY_ACCOUNT":
    case "COP_ACCOUNT":
    case "GHS_ACCOUNT":
    case "SLV_ACCOUNT":
      return info.accountNumber === undefined ? (info.phoneNumber ?? "") : keyOf(info.bankName, info.accountNumber)
    case "PKR_ACCOUNT":
      return (
        info.iban ??
        (info.accountNumber === undefined ? (info.phoneNumber ?? "") : keyOf(info.bankName, info.accountNumber))
      )
    case "EGP_ACCOUNT":
      return info.iban ?? info.phoneNumber ?? ""
    case "INR_ACCOUNT":
      return info.accountNumber === undefined ? (info.vpa ?? "").toLowerCase() : keyOf(info.ifsc, info.accountNumber)
    case "BRL_ACCOUNT":
      return info.pixKeyType === "EMAIL" ? info.pixKey.toLowerCase() : info.pixKey
    case "SWIFT_ACCOUNT":
      return info.iban ?? keyOf(info.swiftCode, info.accountNumber)
    case "LIGHTNING":
    case "LIGHTNING_ACCOUNT":
      return (info.invoice ?? info.bolt12 ?? info.lightningAddress ?? "").toLowerCase()
    case "BASE_WALLET":
    case "ETHEREUM_WALLET":
    case "POLYGON_WALLET":
    case "PLASMA_WALLET":
    case "ARBITRUM_WALLET":
      return info.address.toLowerCase()
    default:
      return identifierOf(info)
  }
}
