import { Option, Schema } from "effect"
import { PaymentRails } from "@payrail/account-formats"
import { AccountTypeCurrency } from "../accounts/index.js"
import { Currency } from "../kernel/index.js"

/**
 * The rails money in each currency is paid out on by default, first rail first: what `GET /exchange-rates` shows
 * as `destinationPaymentRail`. Fiat currencies use the rails of their account type (`PaymentRails.railsByAccountType`
 * of `@payrail/account-formats`: USD ACH, MXN SPEI, BRL PIX, INR UPI, GBP FASTER_PAYMENTS...), except EUR, whose
 * default is SEPA_INSTANT before SEPA. Crypto assets have no bank rail; their entry names the network the payout
 * settles on: `LIGHTNING` for BTC, `SOLANA` for USDC, `TRON` for USDT.
 */

/** The network a crypto payout settles on, where a fiat payout names its bank rail. */
export const CryptoRail = Schema.Literal("LIGHTNING", "SOLANA", "TRON").annotations({ identifier: "CryptoRail" })
export type CryptoRail = typeof CryptoRail.Type

/** A destination's payment rail: a fiat `PaymentRail`, or the network of a crypto payout. */
export const DestinationRail = Schema.Union(PaymentRails.PaymentRail, CryptoRail).annotations({
  identifier: "DestinationPaymentRail",
  description: "The rail a payout in the destination currency uses by default (for crypto, its network)"
})
export type DestinationRail = typeof DestinationRail.Type

const cryptoRails: Readonly<Record<string, readonly [CryptoRail, ...ReadonlyArray<CryptoRail>]>> = {
  BTC: ["LIGHTNING"],
  USDC: ["SOLANA"],
  USDT: ["TRON"]
}

/** Where a fiat currency's default order differs from its account type's. */
const fiatPreferences: Readonly<Record<string, ReadonlyArray<PaymentRails.PaymentRail>>> = {
  EUR: ["SEPA_INSTANT", "SEPA"]
}

const fiatRails = (code: string): ReadonlyArray<PaymentRails.PaymentRail> => {
  const preferred = fiatPreferences[code]
  if (preferred !== undefined) return preferred
  const accountType = `${code}_ACCOUNT`
  return PaymentRails.isFiatAccountType(accountType) ? PaymentRails.railsOf(accountType) : []
}

/** Every registry currency's default rails, first rail first; every code of `Currency.registry` has at least one. */
export const railsByCurrency: ReadonlyMap<string, ReadonlyArray<DestinationRail>> = new Map(
  Array.from(Currency.registry.keys()).map((code) => [
    code,
    AccountTypeCurrency.cryptoCurrencyCodes.has(code) ? (cryptoRails[code] ?? []) : fiatRails(code)
  ])
)

/** The rail a payout in `currencyCode` uses by default; `None` for a code outside the registry. */
export const defaultRailOf = (currencyCode: string): Option.Option<DestinationRail> =>
  Option.fromNullable(railsByCurrency.get(currencyCode)?.[0])
