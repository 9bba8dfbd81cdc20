import { Schema } from "effect"
import { Money } from "../kernel/index.js"
import type { FeeTerms, Priced } from "./Pricing.js"
import * as Rate from "./Rate.js"

const Multiplier = Schema.Number.pipe(Schema.positive({ description: "a positive number" }))
const FeeMinor = Schema.Int.pipe(Schema.nonNegative({ description: "a non-negative integer of minor units" }))

/**
 * How a price was made, in the reference's field names (`rateDetails` of quotes and outgoing transactions). Payrail
 * has no counterparty charging on top, so `counterpartyMultiplier` is 1 and `counterpartyFixedFee` 0. The `gridApi*`
 * fields describe Payrail's own pricing, in minor units of the sending currency:
 *
 * - `gridApiMultiplier`: receiving major units per sending major unit at the customer's rate (`1 / exchangeRate`,
 *   to 12 significant digits);
 * - `gridApiFixedFee`: Payrail's fixed fee; `gridApiVariableFeeRate`: its variable rate (`bps / 10000`);
 * - `gridApiVariableFeeAmount`: its variable fee plus the rounding a locked sending amount leaves over.
 *
 * The platform's fee is not in them: it is the quote's `platformFeesIncluded`. So, exactly:
 * `totalSendingAmount == ceil(totalReceivingAmount × k) + gridApiFixedFee + gridApiVariableFeeAmount +
 * platformFeesIncluded` (`k` of `Pricing`).
 */
export const RateDetails = Schema.Struct({
  counterpartyMultiplier: Multiplier.annotations({ description: "Always 1: no counterparty rate on top" }),
  counterpartyFixedFee: FeeMinor.annotations({ description: "Always 0: no counterparty fee" }),
  gridApiMultiplier: Multiplier.annotations({
    description: "Receiving units per sending unit at the customer's rate (1 / exchangeRate)"
  }),
  gridApiFixedFee: FeeMinor.annotations({ description: "Payrail's fixed fee, in sending minor units" }),
  gridApiVariableFeeRate: Schema.Number.pipe(
    Schema.between(0, 1, { description: "a fraction from 0 to 1" })
  ).annotations({
    description: "Payrail's variable fee as a fraction of the converted amount (basis points / 10000)"
  }),
  gridApiVariableFeeAmount: FeeMinor.annotations({
    description: "Payrail's variable fee plus what a locked sending amount leaves over, in sending minor units"
  })
}).annotations({ identifier: "RateDetails", description: "How the quote's price was made" })
export type RateDetails = typeof RateDetails.Type

/** The rate details of a price made with Payrail's fee `payrailFee`. */
export const of = (priced: Priced, payrailFee: FeeTerms): RateDetails => ({
  counterpartyMultiplier: 1,
  counterpartyFixedFee: 0,
  gridApiMultiplier: Rate.toNumber(Rate.reciprocal(priced.rate, Rate.maxNumberDigits)),
  gridApiFixedFee: Money.toWire(priced.payrailFixedFeeMinor),
  gridApiVariableFeeRate: payrailFee.variableBps / 10_000,
  gridApiVariableFeeAmount: Money.toWire(priced.payrailVariableFeeMinor + priced.roundingMinor)
})
