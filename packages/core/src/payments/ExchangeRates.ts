import { Context, Effect, Either, Layer, Option } from "effect"
import { Money } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { defaultRailOf } from "./CurrencyRails.js"
import type { ExchangeRate } from "./ExchangeRate.js"
import { Pricer, type PriceTerms, supportedCurrency } from "./Pricer.js"
import * as Pricing from "./Pricing.js"
import type { InvalidCurrency, QuoteRateUnavailable } from "./PricingErrors.js"
import * as Rate from "./Rate.js"

/** The amount `GET /exchange-rates` prices when none is given: 10000 minor units of the source currency. */
export const defaultSendingAmountMinor = 10_000n

/** Which corridors to list and for how much. */
export interface ExchangeRateQuery {
  /** One source currency; every currency the platform supports when absent. */
  readonly sourceCurrency?: string
  /** The destination currencies; every supported one but the source when absent. */
  readonly destinationCurrencies?: ReadonlyArray<string>
  readonly sendingAmountMinor: bigint
}

/**
 * The exchange rates a platform offers (`GET /exchange-rates`): for each corridor, what a quote locking the sending
 * amount would give now, by `Pricer`'s terms (cached rates, spread, Payrail's and the platform's fees) and `Pricing`'s
 * rounding rule. Indicative: an amount outside the source's limits is priced all the same (the limits are in the
 * answer), and one that buys nothing shows `receivingAmount` 0. Reads only.
 */
export class ExchangeRates extends Context.Tag("@payrail/core/ExchangeRates")<
  ExchangeRates,
  {
    /**
     * The corridors of `query`, sources in the platform's order, then destinations in the order asked (or the
     * platform's). A corridor from a currency to itself is listed only when its destination is asked for. Fails with
     * `InvalidCurrency` for a named currency the platform does not support, and `QuoteRateUnavailable` when a
     * corridor has no rate.
     */
    readonly list: (
      platform: Platform.Platform,
      query: ExchangeRateQuery
    ) => Effect.Effect<ReadonlyArray<ExchangeRate>, InvalidCurrency | QuoteRateUnavailable>
  }
>() {}

/** The indicative price of `sendingAmountMinor` in the corridor of `terms`. */
export const rateOf = (terms: PriceTerms, sendingAmountMinor: bigint): ExchangeRate => {
  const fixedMinor = terms.payrailFee.fixedMinor + terms.platformFee.fixedMinor
  const priced = Pricing.price({
    sending: terms.sendingCurrency,
    receiving: terms.receivingCurrency,
    lockedSide: "SENDING",
    lockedAmountMinor: sendingAmountMinor,
    rate: terms.rate,
    payrailFee: terms.payrailFee,
    platformFee: terms.platformFee
  })
  const [receivingMinor, feesMinor] = Either.match(priced, {
    onLeft: () => [0n, sendingAmountMinor] as const,
    onRight: (price) => [price.totalReceivingMinor, price.feesMinor] as const
  })
  return {
    sourceCurrency: terms.sendingCurrency,
    sendingAmount: Money.toWire(sendingAmountMinor),
    minSendingAmount: terms.sendingLimits.minAmount,
    maxSendingAmount: terms.sendingLimits.maxAmount,
    destinationCurrency: terms.receivingCurrency,
    destinationPaymentRail: Option.getOrThrowWith(
      defaultRailOf(terms.receivingCurrency.code),
      () => new RangeError("a registry currency without a default rail")
    ),
    receivingAmount: Money.toWire(receivingMinor),
    exchangeRate: Rate.toNumber(terms.rate),
    fees: {
      fixed: Money.toWire(fixedMinor < sendingAmountMinor ? fixedMinor : sendingAmountMinor),
      total: Money.toWire(feesMinor)
    },
    updatedAt: terms.fx.updatedAt
  }
}

const distinct = (codes: ReadonlyArray<string>): ReadonlyArray<string> => Array.from(new Set(codes))

export const layer: Layer.Layer<ExchangeRates, never, Pricer> = Layer.effect(
  ExchangeRates,
  Effect.map(Pricer, (pricer) => ({
    list: Effect.fn("ExchangeRates.list")(function* (platform: Platform.Platform, query: ExchangeRateQuery) {
      const supported = platform.config.supportedCurrencies.map((entry) => entry.currencyCode)
      const sources = query.sourceCurrency === undefined ? supported : [query.sourceCurrency]
      const asked = query.destinationCurrencies === undefined ? undefined : distinct(query.destinationCurrencies)
      // Named currencies are checked even when they make no corridor (a platform with one currency).
      for (const code of [...(query.sourceCurrency === undefined ? [] : [query.sourceCurrency]), ...(asked ?? [])]) {
        yield* supportedCurrency(platform, code)
      }
      const pairs = sources.flatMap((source) =>
        (asked ?? supported.filter((code) => code !== source)).map((destination) => [source, destination] as const)
      )
      return yield* Effect.forEach(pairs, ([sendingCurrency, receivingCurrency]) =>
        Effect.map(pricer.terms(platform, { sendingCurrency, receivingCurrency }), (terms) =>
          rateOf(terms, query.sendingAmountMinor)
        )
      )
    })
  }))
)
