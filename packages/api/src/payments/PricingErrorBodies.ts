import { Errors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

/** The wire forms of pricing's refusals, every one a 400, for every operation that prices (quotes, exchange rates). */

/** 400 `QUOTE_RATE_UNAVAILABLE`: no exchange rate for the corridor now. */
export const QuoteRateUnavailableBody = ErrorBody.wire(
  Errors.QuoteRateUnavailable,
  400,
  "No exchange rate is available for the corridor now; `details` name it"
)

/** 400 `INVALID_CURRENCY`: `details.currency` is unknown, or not supported by the platform (`details.rule`). */
export const InvalidCurrencyBody = ErrorBody.wire(
  Errors.InvalidCurrency,
  400,
  "A currency Payrail does not know or the platform does not support (`details.currency`, `details.rule`)"
)

/** 400 `INVALID_AMOUNT`: the amount does not cover one receiving minor unit with its fees. */
export const InvalidAmountBody = ErrorBody.wire(
  Errors.InvalidAmount,
  400,
  "The amount does not cover one minor unit of the receiving currency with its fees"
)

/** 400 `AMOUNT_OUT_OF_RANGE`: the total sending amount is below the platform's `minAmount` of the currency. */
export const AmountOutOfRangeBody = ErrorBody.wire(
  Errors.AmountOutOfRange,
  400,
  "The sending amount is below the platform's minimum for the currency (`details.minAmount`)"
)

/** 400 `TRANSACTION_SIZE_LIMIT_EXCEEDED`: the total sending amount is above the platform's `maxAmount`. */
export const TransactionSizeLimitExceededBody = ErrorBody.wire(
  Errors.TransactionSizeLimitExceeded,
  400,
  "The sending amount is above the platform's maximum for the currency (`details.maxAmount`)"
)
