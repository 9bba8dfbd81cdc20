import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Currency, ExchangeRate, ExchangeRates } from "@payrail/core"
import { FieldErrorReport } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"
import { InvalidCurrencyBody, QuoteRateUnavailableBody } from "./PricingErrorBodies.js"

const amountDigits = "^(?:0|[1-9][0-9]{0,15})$"

/**
 * An amount in minor units in the query: plain decimal digits without sign, blanks, leading zeros, exponent or radix
 * prefix, from 0 to 2^53-1.
 */
export const QueryAmountMinor = Schema.String.pipe(
  Schema.filter((text) => new RegExp(amountDigits).test(text), {
    description: `a decimal integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
    jsonSchema: { pattern: amountDigits }
  }),
  Schema.compose(Schema.NumberFromString),
  Schema.between(0, Number.MAX_SAFE_INTEGER, {
    description: `a decimal integer from 0 to ${Number.MAX_SAFE_INTEGER}`
  })
)

/** Query of `GET /exchange-rates`. `destinationCurrency` may repeat (`?destinationCurrency=EUR&destinationCurrency=MXN`). */
export const ExchangeRateParams = FieldErrorReport.reportFieldErrors(
  Schema.Struct({
    sourceCurrency: Schema.optional(
      Currency.CurrencyCode.annotations({ description: "One source currency (default: every supported one)" })
    ),
    destinationCurrency: Schema.optional(
      Schema.ArrayEnsure(Currency.CurrencyCode).annotations({
        description: "Destination currencies, repeatable (default: every supported one but the source)"
      })
    ),
    sendingAmount: Schema.optional(
      QueryAmountMinor.annotations({
        description: `The amount to price, in minor units of the source currency (default ${ExchangeRates.defaultSendingAmountMinor})`
      })
    )
  })
)

/** `{data: ExchangeRate[]}`, unpaginated. */
export const ExchangeRateListResponse = Schema.Struct({ data: Schema.Array(ExchangeRate.ExchangeRate) }).annotations({
  identifier: "ExchangeRateListResponse"
})

/** `GET /exchange-rates` (VIEW): indicative prices of the platform's corridors, platform fees included. */
export class ExchangeRatesApi extends HttpApiGroup.make("exchangeRates")
  .add(
    HttpApiEndpoint.get("list", "/exchange-rates")
      .setUrlParams(ExchangeRateParams)
      .addSuccess(ExchangeRateListResponse)
      .addError(InvalidCurrencyBody)
      .addError(QuoteRateUnavailableBody)
      .annotate(OpenApi.Summary, "List exchange rates")
      .annotate(
        OpenApi.Description,
        "For every corridor from a supported source currency to a supported destination currency (a currency to itself only when asked for as a destination), what a quote locking `sendingAmount` would give now: the receiving amount, the rate (source units per destination unit, the spread included) and the fees, the platform's included. Rates are cached for about 5 minutes. The answer is indicative: an amount outside the source's limits (`minSendingAmount`, `maxSendingAmount`) is priced all the same, and one that buys nothing shows `receivingAmount` 0."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Exchange rates")
  .annotate(OpenApi.Description, "Current rates and fees of the platform's currency corridors.") {}
