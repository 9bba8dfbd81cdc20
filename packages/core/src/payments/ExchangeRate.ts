import { Schema } from "effect"
import { Currency } from "../kernel/index.js"
import { DestinationRail } from "./CurrencyRails.js"

const Minor = Schema.Int.pipe(Schema.nonNegative({ description: "a non-negative integer of minor units" }))

/** The fees of an indicative price, in minor units of the source currency. */
export const ExchangeRateFees = Schema.Struct({
  fixed: Minor.annotations({ description: "The fixed part of the fees (Payrail's and the platform's)" }),
  total: Minor.annotations({
    description:
      "Every fee, the platform's included, and what the amount leaves over after the largest receivable amount"
  })
}).annotations({ identifier: "ExchangeRateFees" })

/**
 * An indicative price of one corridor for `sendingAmount` (the reference's `ExchangeRate`): what a quote locking that
 * sending amount would give now, platform fees included. `exchangeRate` is source units per destination unit, and
 * exactly `sendingAmount == ceil(receivingAmount × k) + fees.total` (`Pricing`'s rule); when the amount buys nothing,
 * `receivingAmount` is 0 and `fees.total` is the whole amount.
 */
export const ExchangeRate = Schema.Struct({
  sourceCurrency: Currency.Currency,
  sendingAmount: Minor.annotations({ description: "The amount priced, in minor units of the source currency" }),
  minSendingAmount: Minor.annotations({ description: "The platform's minimum for the source currency" }),
  maxSendingAmount: Minor.annotations({ description: "The platform's maximum for the source currency" }),
  destinationCurrency: Currency.Currency,
  destinationPaymentRail: DestinationRail,
  receivingAmount: Minor.annotations({ description: "What the destination receives, in its minor units" }),
  exchangeRate: Schema.Number.pipe(Schema.positive({ description: "a positive number" })).annotations({
    description: "Source units per destination unit, the spread included"
  }),
  fees: ExchangeRateFees,
  updatedAt: Schema.DateTimeUtc.annotations({ description: "When the rate was published" })
}).annotations({ identifier: "ExchangeRate" })
export type ExchangeRate = typeof ExchangeRate.Type
