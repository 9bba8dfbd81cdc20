import { Schema } from "effect"

/**
 * Refusals of pricing (quotes and `GET /exchange-rates`). Each has the spec's `code`, names the rule it enforces in
 * `details.rule`, and has one constructor (`of`); every one is a 400, attached in `@payrail/api`.
 */

/** No rate for the corridor now (the provider has none or cannot be reached). Spec code `QUOTE_RATE_UNAVAILABLE`. */
export class QuoteRateUnavailable extends Schema.TaggedError<QuoteRateUnavailable>()("QuoteRateUnavailable", {
  code: Schema.tag("QUOTE_RATE_UNAVAILABLE"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("no_rate_for_corridor"),
    sendingCurrency: Schema.String,
    receivingCurrency: Schema.String
  })
}) {
  static of(sendingCurrency: string, receivingCurrency: string): QuoteRateUnavailable {
    return new QuoteRateUnavailable({
      reason: `No exchange rate is available from ${sendingCurrency} to ${receivingCurrency} now; try again later`,
      details: { rule: "no_rate_for_corridor", sendingCurrency, receivingCurrency }
    })
  }
}

/**
 * Why a currency cannot be used: Payrail does not know it, the platform does not support it, the receiver of an
 * incoming payment has no account in it, or an UMA receiver does not accept it.
 */
export const InvalidCurrencyRule = Schema.Literal(
  "unknown_currency",
  "currency_not_supported_by_platform",
  "receiver_has_no_account_in_currency",
  "currency_not_accepted_by_receiver"
)
export type InvalidCurrencyRule = typeof InvalidCurrencyRule.Type

/** A currency that cannot be priced. Spec code `INVALID_CURRENCY`; `details` name the currency and why. */
export class InvalidCurrency extends Schema.TaggedError<InvalidCurrency>()("InvalidCurrency", {
  code: Schema.tag("INVALID_CURRENCY"),
  reason: Schema.String,
  details: Schema.Struct({ rule: InvalidCurrencyRule, currency: Schema.String })
}) {
  static of(currency: string, rule: InvalidCurrencyRule): InvalidCurrency {
    return new InvalidCurrency({
      reason:
        rule === "unknown_currency"
          ? "The currency is not one Payrail knows"
          : rule === "receiver_has_no_account_in_currency"
            ? `The receiver has no active account in ${currency} to deposit to`
            : rule === "currency_not_accepted_by_receiver"
              ? `The receiver does not accept ${currency}; choose one of the lookup's supportedCurrencies`
              : `The platform does not support ${currency}; add it to supportedCurrencies first`,
      details: { rule, currency }
    })
  }
}

/**
 * The amount buys nothing: it is not positive, or a locked sending amount does not cover one receiving minor unit
 * with its fees. Spec code `INVALID_AMOUNT`.
 */
export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", {
  code: Schema.tag("INVALID_AMOUNT"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("receives_nothing"),
    sendingCurrency: Schema.String,
    receivingCurrency: Schema.String
  })
}) {
  static of(sendingCurrency: string, receivingCurrency: string): InvalidAmount {
    return new InvalidAmount({
      reason: `The amount does not cover one minor unit of ${receivingCurrency} with its fees`,
      details: { rule: "receives_nothing", sendingCurrency, receivingCurrency }
    })
  }
}

/**
 * The total sending amount is below the sending currency's `minAmount` in the platform's configuration. Spec code
 * `AMOUNT_OUT_OF_RANGE`; `details.minAmount` is the limit in minor units of `details.currency`.
 */
export class AmountOutOfRange extends Schema.TaggedError<AmountOutOfRange>()("AmountOutOfRange", {
  code: Schema.tag("AMOUNT_OUT_OF_RANGE"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("below_minimum_amount"),
    currency: Schema.String,
    minAmount: Schema.Int
  })
}) {
  static of(currency: string, minAmount: number): AmountOutOfRange {
    return new AmountOutOfRange({
      reason: `The sending amount is below the platform's minimum of ${minAmount} minor units of ${currency}`,
      details: { rule: "below_minimum_amount", currency, minAmount }
    })
  }
}

/**
 * The total sending amount is above the sending currency's `maxAmount` in the platform's configuration (the
 * single-transaction limit of the corridor). Spec code `TRANSACTION_SIZE_LIMIT_EXCEEDED`; `details.maxAmount` is the
 * limit in minor units of `details.currency`.
 */
export class TransactionSizeLimitExceeded extends Schema.TaggedError<TransactionSizeLimitExceeded>()(
  "TransactionSizeLimitExceeded",
  {
    code: Schema.tag("TRANSACTION_SIZE_LIMIT_EXCEEDED"),
    reason: Schema.String,
    details: Schema.Struct({
      rule: Schema.Literal("above_maximum_amount"),
      currency: Schema.String,
      maxAmount: Schema.Int
    })
  }
) {
  static of(currency: string, maxAmount: number): TransactionSizeLimitExceeded {
    return new TransactionSizeLimitExceeded({
      reason: `The sending amount is above the platform's maximum of ${maxAmount} minor units of ${currency}`,
      details: { rule: "above_maximum_amount", currency, maxAmount }
    })
  }
}
