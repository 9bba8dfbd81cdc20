import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, ExchangeRates } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handler of `GET /exchange-rates` (VIEW): the caller's platform's corridors, priced now. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "exchangeRates">,
  never,
  ExchangeRates.ExchangeRates | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "exchangeRates", (handlers) =>
  Effect.gen(function* () {
    const rates = yield* ExchangeRates.ExchangeRates
    return handlers.handle("list", ({ urlParams }) =>
      Caller.require("VIEW").pipe(
        Effect.flatMap((caller) =>
          rates.list(caller.platform, {
            ...(urlParams.sourceCurrency === undefined ? {} : { sourceCurrency: urlParams.sourceCurrency }),
            ...(urlParams.destinationCurrency === undefined
              ? {}
              : { destinationCurrencies: urlParams.destinationCurrency }),
            sendingAmountMinor:
              urlParams.sendingAmount === undefined
                ? ExchangeRates.defaultSendingAmountMinor
                : BigInt(urlParams.sendingAmount)
          })
        ),
        Effect.map((data) => ({ data }))
      )
    )
  })
)
