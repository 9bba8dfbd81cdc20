import { Option } from "effect"
import { Currency, FieldError } from "../kernel/index.js"
import type { ExternalAccountInfo } from "@payrail/account-formats"

/**
 * Which currencies each external account type carries, and the check of a request's `currency` against it. An
 * account type implies its currency (`MXN_ACCOUNT` is MXN) except `SWIFT_ACCOUNT` (any fiat currency) and the
 * wallets that carry several assets.
 */

/** Codes of the crypto assets accounts are held in; every other registry code is fiat. */
export const cryptoCurrencyCodes: ReadonlySet<string> = new Set(["BTC", "USDC", "USDT"])

/**
 * The currencies an account type carries: a list of codes, or `ANY_FIAT` (every fiat currency of the registry) for
 * `SWIFT_ACCOUNT`. `SLV_ACCOUNT` is El Salvador, whose currency is USD. Wallet assets follow the public Grid docs:
 * USDC on Base, Polygon, Arbitrum and Solana; USDC or USDT on Ethereum; USDT on Tron and Plasma; BTC on Spark and
 * Lightning.
 */
export const accountTypeCurrency: {
  readonly [K in ExternalAccountInfo.AccountType]: ReadonlyArray<string> | "ANY_FIAT"
} = {
  AED_ACCOUNT: ["AED"],
  BDT_ACCOUNT: ["BDT"],
  BRL_ACCOUNT: ["BRL"],
  BWP_ACCOUNT: ["BWP"],
  CAD_ACCOUNT: ["CAD"],
  COP_ACCOUNT: ["COP"],
  DKK_ACCOUNT: ["DKK"],
  EGP_ACCOUNT: ["EGP"],
  EUR_ACCOUNT: ["EUR"],
  GBP_ACCOUNT: ["GBP"],
  GHS_ACCOUNT: ["GHS"],
  GTQ_ACCOUNT: ["GTQ"],
  HKD_ACCOUNT: ["HKD"],
  HTG_ACCOUNT: ["HTG"],
  IDR_ACCOUNT: ["IDR"],
  INR_ACCOUNT: ["INR"],
  JMD_ACCOUNT: ["JMD"],
  KES_ACCOUNT: ["KES"],
  MWK_ACCOUNT: ["MWK"],
  MXN_ACCOUNT: ["MXN"],
  MYR_ACCOUNT: ["MYR"],
  NGN_ACCOUNT: ["NGN"],
  PHP_ACCOUNT: ["PHP"],
  PKR_ACCOUNT: ["PKR"],
  RWF_ACCOUNT: ["RWF"],
  SGD_ACCOUNT: ["SGD"],
  SLV_ACCOUNT: ["USD"],
  THB_ACCOUNT: ["THB"],
  TZS_ACCOUNT: ["TZS"],
  UGX_ACCOUNT: ["UGX"],
  USD_ACCOUNT: ["USD"],
  VND_ACCOUNT: ["VND"],
  XAF_ACCOUNT: ["XAF"],
  XOF_ACCOUNT: ["XOF"],
  ZAR_ACCOUNT: ["ZAR"],
  ZMW_ACCOUNT: ["ZMW"],
  CNY_ACCOUNT: ["CNY"],
  ILS_ACCOUNT: ["ILS"],
  TRY_ACCOUNT: ["TRY"],
  SWIFT_ACCOUNT: "ANY_FIAT",
  BASE_WALLET: ["USDC"],
  ETHEREUM_WALLET: ["USDC", "USDT"],
  LIGHTNING: ["BTC"],
  LIGHTNING_ACCOUNT: ["BTC"],
  POLYGON_WALLET: ["USDC"],
  PLASMA_WALLET: ["USDT"],
  ARBITRUM_WALLET: ["USDC"],
  SOLANA_WALLET: ["USDC"],
  SPARK_WALLET: ["BTC"],
  TRON_WALLET: ["USDT"]
}

/**
 * Whether an external account of `accountType` may be created in `currency` (the request's `currency` field):
 * one of the type's codes, or for `ANY_FIAT` any registry currency that is not a crypto asset.
 */
export const allowsCurrency = (accountType: ExternalAccountInfo.AccountType, currency: string): boolean => {
  const allowed = accountTypeCurrency[accountType]
  return allowed === "ANY_FIAT"
    ? Currency.registry.has(currency) && !cryptoCurrencyCodes.has(currency)
    : allowed.includes(currency)
}

/**
 * The field error for a request whose `currency` the account type does not carry (`None` when it does), for an
 * `INVALID_INPUT` response: field `currency`, the allowed codes as its `enum` constraint (none for `ANY_FIAT`).
 */
export const currencyError = (
  accountType: ExternalAccountInfo.AccountType,
  currency: string
): Option.Option<FieldError.FieldError> => {
  if (allowsCurrency(accountType, currency)) return Option.none()
  const allowed = accountTypeCurrency[accountType]
  return Option.some(
    new FieldError.FieldError({
      field: "currency",
      message: `must be a currency that ${accountType} carries`,
      ...(allowed === "ANY_FIAT" ? {} : { constraint: { enum: allowed } })
    })
  )
}
