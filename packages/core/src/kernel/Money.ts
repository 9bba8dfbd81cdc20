import { Schema } from "effect"
import { Currency } from "./Currency.js"

/**
 * Money on the wire is a JSON integer of minor units (`10^-decimals` of the currency). Inside the ledger amounts
 * are `bigint`; the wire rejects non-integers, and values beyond `Number.MAX_SAFE_INTEGER`, so no amount is ever
 * rounded by a JSON parser.
 */

/**
 * A strictly positive amount in minor units of at most `maxMinor` (itself at most `Number.MAX_SAFE_INTEGER`), for an
 * operation whose limit is lower than what the wire carries: the JSON Schema states that limit, not the wire's.
 */
export const positiveAmountMinorUpTo = (maxMinor: number) =>
  Schema.Number.pipe(
    Schema.int({ description: "an integer number of minor units" }),
    Schema.positive({ description: "a positive number of minor units" }),
    Schema.lessThanOrEqualTo(Math.min(maxMinor, Number.MAX_SAFE_INTEGER), {
      description: `at most ${Math.min(maxMinor, Number.MAX_SAFE_INTEGER)} minor units`
    })
  )

/** A strictly positive amount in minor units, at most `Number.MAX_SAFE_INTEGER`. */
export const PositiveAmountMinor = positiveAmountMinorUpTo(Number.MAX_SAFE_INTEGER).annotations({
  identifier: "PositiveAmountMinor"
})

/** An amount with its currency, as the API shows balances: `{amount, currency: {code, name, decimals, symbol?}}`. */
export const CurrencyAmount = Schema.Struct({
  amount: Schema.Int,
  currency: Currency
}).annotations({ identifier: "CurrencyAmount" })
export type CurrencyAmount = typeof CurrencyAmount.Type

/** A ledger amount as a wire integer. One beyond the exactly representable range is a defect: never rounded. */
export const toWire = (amountMinor: bigint): number => {
  if (amountMinor > BigInt(Number.MAX_SAFE_INTEGER) || amountMinor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError("amount beyond the range the API can carry exactly")
  }
  return Number(amountMinor)
}
