import { Schema } from "effect"

/**
 * The payment rails of fiat accounts: the one table of which rails each fiat `accountType` can be paid on, the
 * schema of an account's `paymentRails` (a non-empty list of distinct rails of its type) and the `accountInfo` field
 * that carries it, optional in a request and always present once decoded. Rails per type follow the public Grid API
 * (`ILS_ACCOUNT` and `TRY_ACCOUNT`, which it does not list, are paid by bank transfer). Crypto wallets and Lightning
 * destinations have no rails here.
 */

/** Every rail a fiat account can be paid on. */
export const PaymentRail = Schema.Literal(
  "ACH",
  "WIRE",
  "RTP",
  "FEDNOW",
  "SEPA",
  "SEPA_INSTANT",
  "FASTER_PAYMENTS",
  "SPEI",
  "PIX",
  "UPI",
  "NEFT",
  "RTGS",
  "PAYNOW",
  "FAST",
  "SWIFT",
  "BANK_TRANSFER",
  "MOBILE_MONEY"
).annotations({ identifier: "PaymentRail" })
export type PaymentRail = typeof PaymentRail.Type

const bankTransfer = ["BANK_TRANSFER"] as const
const bankOrMobileMoney = ["BANK_TRANSFER", "MOBILE_MONEY"] as const
const mobileMoney = ["MOBILE_MONEY"] as const
const sepa = ["SEPA", "SEPA_INSTANT"] as const

/**
 * The rails of each fiat account type, in the order the reference lists them; its keys are exactly the fiat
 * account types. `railsByAccountType.GBP_ACCOUNT` answers "which rails can a GBP account use?".
 */
export const railsByAccountType = {
  AED_ACCOUNT: bankTransfer,
  BDT_ACCOUNT: bankOrMobileMoney,
  BRL_ACCOUNT: ["PIX"],
  BWP_ACCOUNT: mobileMoney,
  CAD_ACCOUNT: bankTransfer,
  COP_ACCOUNT: bankOrMobileMoney,
  DKK_ACCOUNT: sepa,
  EGP_ACCOUNT: bankOrMobileMoney,
  EUR_ACCOUNT: sepa,
  GBP_ACCOUNT: ["FASTER_PAYMENTS"],
  GHS_ACCOUNT: bankOrMobileMoney,
  GTQ_ACCOUNT: bankTransfer,
  HKD_ACCOUNT: bankTransfer,
  HTG_ACCOUNT: mobileMoney,
  IDR_ACCOUNT: bankTransfer,
  INR_ACCOUNT: ["UPI", "NEFT", "RTGS"],
  JMD_ACCOUNT: bankTransfer,
  KES_ACCOUNT: mobileMoney,
  MWK_ACCOUNT: mobileMoney,
  MXN_ACCOUNT: ["SPEI"],
  MYR_ACCOUNT: bankTransfer,
  NGN_ACCOUNT: bankTransfer,
  PHP_ACCOUNT: bankTransfer,
  PKR_ACCOUNT: bankOrMobileMoney,
  RWF_ACCOUNT: mobileMoney,
  SGD_ACCOUNT: ["PAYNOW", "FAST", "BANK_TRANSFER"],
  SLV_ACCOUNT: bankOrMobileMoney,
  THB_ACCOUNT: bankTransfer,
  TZS_ACCOUNT: mobileMoney,
  UGX_ACCOUNT: mobileMoney,
  USD_ACCOUNT: ["ACH", "WIRE", "RTP", "FEDNOW"],
  VND_ACCOUNT: bankTransfer,
  XAF_ACCOUNT: mobileMoney,
  XOF_ACCOUNT: mobileMoney,
  ZAR_ACCOUNT: bankTransfer,
  ZMW_ACCOUNT: mobileMoney,
  CNY_ACCOUNT: bankOrMobileMoney,
  ILS_ACCOUNT: bankTransfer,
  TRY_ACCOUNT: bankTransfer,
  SWIFT_ACCOUNT: ["SWIFT"]
} as const satisfies Readonly<Record<string, readonly [PaymentRail, ...ReadonlyArray<PaymentRail>]>>

/** A fiat account type: one that has payment rails. */
export type FiatAccountType = keyof typeof railsByAccountType

/** The rails of a fiat account type (never empty). */
export type RailsOf<T extends FiatAccountType> = (typeof railsByAccountType)[T]

/** The rails an account of `accountType` can be paid on, in the reference's order; never empty. */
export const railsOf = <T extends FiatAccountType>(accountType: T): RailsOf<T> => railsByAccountType[accountType]

/** Whether `accountType` is a fiat account type, i.e. one that has payment rails. */
export const isFiatAccountType = (accountType: string): accountType is FiatAccountType =>
  Object.hasOwn(railsByAccountType, accountType)

const distinct = (rails: ReadonlyArray<string>): boolean => new Set(rails).size === rails.length

/**
 * The `paymentRails` of an account of `accountType`: a non-empty list of distinct rails of that type. A rail of
 * another type is reported at its index (`paymentRails.1`) with the type's rails as its `enum`.
 */
export const PaymentRailsOf = <T extends FiatAccountType>(accountType: T) =>
  Schema.Array(Schema.Literal(...railsOf(accountType))).pipe(
    Schema.minItems(1, { description: "a non-empty list of rails" }),
    Schema.filter(distinct, {
      description: "a list of distinct rails",
      jsonSchema: { uniqueItems: true }
    })
  )

/**
 * The `paymentRails` field of the `accountInfo` of `accountType`: optional in a request; once decoded it is always
 * present, being what the client sent or, when it sent none (and for accounts stored before the field existed),
 * every rail of the type. Encoding therefore always writes it.
 */
export const paymentRailsField = <T extends FiatAccountType>(accountType: T) =>
  Schema.optionalWith(PaymentRailsOf(accountType), { exact: true, default: () => railsOf(accountType) }).annotations({
    description: `The rails the account can be paid on, a subset of ${railsOf(accountType).join(", ")}; every rail of the type when the request has none, so responses always carry it.`
  })
