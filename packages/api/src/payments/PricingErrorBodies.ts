import { PricingErrors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

const { wire } = ErrorBody

/** The 400 bodies of pricing: no rate, a currency the platform does not take, amounts out of its limits. */
export const QuoteRateUnavailableBody = wire(
  PricingErrors.QuoteRateUnavailable,
  400,
  "No rate for the corridor now; try again later"
)
export const InvalidCurrencyBody = wire(
  PricingErrors.InvalidCurrency,
  400,
  "The platform does not support the currency"
)
export const InvalidAmountBody = wire(PricingErrors.InvalidAmount, 400, "The amount delivers nothing after fees")
export const AmountOutOfRangeBody = wire(
  PricingErrors.AmountOutOfRange,
  400,
  "The amount is below the currency's minimum"
)
export const TransactionSizeLimitExceededBody = wire(
  PricingErrors.TransactionSizeLimitExceeded,
  400,
  "The amount is above the currency's single-transaction maximum"
)
