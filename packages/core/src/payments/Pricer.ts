import { Context, type DateTime, Effect, Either, Layer, Option } from "effect"
import { Currency } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import * as FeeSchedule from "./FeeSchedule.js"
import { FxRateCache } from "./FxRateCache.js"
import { applied, type FxRate } from "./FxRates.js"
import * as Pricing from "./Pricing.js"
import {
  AmountOutOfRange,
  InvalidAmount,
  InvalidCurrency,
  type QuoteRateUnavailable,
  TransactionSizeLimitExceeded
} from "./PricingErrors.js"
import * as Rate from "./Rate.js"
import * as RateDetails from "./RateDetails.js"

/** What to price: the corridor, the locked side and amount, and optionally the quote's own platform fee. */
export interface PriceRequest extends CorridorRequest {
  readonly lockedSide: Pricing.LockedSide
  readonly lockedAmountMinor: bigint
}

/** A corridor to price, with the quote's own platform fee when it has one. */
export interface CorridorRequest {
  readonly sendingCurrency: string
  readonly receivingCurrency: string
  readonly platformFeeOverride?: FeeSchedule.PlatformFeeOverride
}

/** What a price in a corridor is made of, before any amount: currencies, limits, rate and fees. */
export interface PriceTerms {
  readonly sendingCurrency: Currency.Currency
  readonly receivingCurrency: Currency.Currency
  /** The platform's configuration of the sending currency: its `minAmount` and `maxAmount` bound a total. */
  readonly sendingLimits: Platform.SupportedCurrency
  /** The provider's rate (mid and spread); for the same currency, one with no spread. */
  readonly fx: FxRate
  /** The customer's rate, `FxRates.applied(fx)`. */
  readonly rate: Rate.Rate
  /** Payrail's fee terms. */
  readonly payrailFee: Pricing.FeeTerms
  /** The platform's fee terms, their fixed part converted to sending minor units. */
  readonly platformFee: Pricing.FeeTerms
}

/** A price with what a quote shows of it. */
export interface PricedQuote {
  readonly sendingCurrency: Currency.Currency
  readonly receivingCurrency: Currency.Currency
  readonly priced: Pricing.Priced
  /** The customer's rate (`priced.rate`), sending units per receiving unit, as the wire number. */
  readonly exchangeRate: number
  readonly rateDetails: RateDetails.RateDetails
  /** When the provider published the rate (now, for the same currency). */
  readonly rateUpdatedAt: DateTime.Utc
  /** The provider's rate the price was made from (mid and spread). */
  readonly fx: FxRate
  /** Payrail's fee terms of this price. */
  readonly payrailFee: Pricing.FeeTerms
  /** The platform's fee terms of this price, its fixed part converted to sending minor units. */
  readonly platformFee: Pricing.FeeTerms
}

/** The failures of `Pricer.price`. */
export type PriceError =
  QuoteRateUnavailable | InvalidCurrency | InvalidAmount | AmountOutOfRange | TransactionSizeLimitExceeded

/**
 * Prices transfers for a platform: the currencies it supports, the (cached) rate with its spread, Payrail's and the
 * platform's fees (`FeeSchedule`), the rounding rule of `Pricing`, and the platform's per-transaction limits. Reads
 * only (no state changes), so concurrent calls are independent.
 */
export class Pricer extends Context.Tag("@payrail/core/Pricer")<
  Pricer,
  {
    /**
     * Prices `request` for `platform`. Fails with `InvalidCurrency` unless both currencies are in the platform's
     * `supportedCurrencies`; `QuoteRateUnavailable` without a rate; `InvalidAmount` when the amount receives nothing;
     * and checks the total sending amount (the locked amount itself when SENDING is locked) against the sending
     * currency's limits: below `minAmount` is `AmountOutOfRange`, above `maxAmount` `TransactionSizeLimitExceeded`.
     */
    readonly price: (platform: Platform.Platform, request: PriceRequest) => Effect.Effect<PricedQuote, PriceError>
    /**
     * The terms of a corridor for `platform`, without an amount (so without limits): what `price` prices with, for
     * callers that price several amounts or show indicative prices (`GET /exchange-rates`). Fails as `price` does
     * for currencies and rates.
     */
    readonly terms: (
      platform: Platform.Platform,
      request: CorridorRequest
    ) => Effect.Effect<PriceTerms, QuoteRateUnavailable | InvalidCurrency>
  }
>() {}

/**
 * The currency of `code` with the platform's configuration of it; `InvalidCurrency` when Payrail does not know the
 * code (`unknown_currency`) or the platform does not support it (`currency_not_supported_by_platform`).
 */
export const supportedCurrency = (
  platform: Platform.Platform,
  code: string
): Effect.Effect<
  { readonly currency: Currency.Currency; readonly config: Platform.SupportedCurrency },
  InvalidCurrency
> =>
  Effect.gen(function* () {
    const currency = Currency.find(code)
    if (Option.isNone(currency)) return yield* InvalidCurrency.of(code, "unknown_currency")
    const config = platform.config.supportedCurrencies.find((entry) => entry.currencyCode === code)
    if (config === undefined) return yield* InvalidCurrency.of(code, "currency_not_supported_by_platform")
    return { currency: currency.value, config }
  })

const withinLimits = (
  config: Platform.SupportedCurrency,
  totalSendingMinor: bigint
): Effect.Effect<void, AmountOutOfRange | TransactionSizeLimitExceeded> =>
  totalSendingMinor < BigInt(config.minAmount)
    ? AmountOutOfRange.of(config.currencyCode, config.minAmount)
    : totalSendingMinor > BigInt(config.maxAmount)
      ? TransactionSizeLimitExceeded.of(config.currencyCode, config.maxAmount)
      : Effect.void

export const layer: Layer.Layer<Pricer, never, FxRateCache> = Layer.effect(
  Pricer,
  Effect.gen(function* () {
    const rates = yield* FxRateCache
    /** The platform fee in sending minor units: a fixed part in another currency converts at the mid rate, up. */
    const platformFeeTerms = (spec: FeeSchedule.PlatformFeeSpec, sending: Currency.Currency) =>
      Effect.gen(function* () {
        if (spec.fixedMinor === 0n || spec.fixedCurrency === sending.code) {
          return { fixedMinor: spec.fixedMinor, variableBps: spec.variableBps }
        }
        const feeCurrency = Currency.find(spec.fixedCurrency)
        if (Option.isNone(feeCurrency)) return yield* InvalidCurrency.of(spec.fixedCurrency, "unknown_currency")
        const fx = yield* rates.rate(sending.code, spec.fixedCurrency)
        return {
          fixedMinor: Pricing.costInMinor(spec.fixedMinor, feeCurrency.value, sending, fx.mid),
          variableBps: spec.variableBps
        }
      })
    const terms = (platform: Platform.Platform, request: CorridorRequest) =>
      Effect.gen(function* () {
        const sending = yield* supportedCurrency(platform, request.sendingCurrency)
        const receiving = yield* supportedCurrency(platform, request.receivingCurrency)
        const fx = yield* rates.rate(sending.currency.code, receiving.currency.code)
        const spec = FeeSchedule.platformFeeSpec(
          platform,
          sending.currency,
          receiving.currency,
          request.platformFeeOverride
        )
        return {
          sendingCurrency: sending.currency,
          receivingCurrency: receiving.currency,
          sendingLimits: sending.config,
          fx,
          rate: applied(fx),
          payrailFee: FeeSchedule.payrailFee(sending.currency, receiving.currency),
          platformFee: Option.isSome(spec) ? yield* platformFeeTerms(spec.value, sending.currency) : Pricing.noFee
        } satisfies PriceTerms
      })
    return {
      terms: Effect.fn("Pricer.terms")(terms),
      price: Effect.fn("Pricer.price")(function* (platform: Platform.Platform, request: PriceRequest) {
        const corridor = yield* terms(platform, request)
        const { sendingCurrency, receivingCurrency, sendingLimits } = corridor
        if (request.lockedSide === "SENDING") yield* withinLimits(sendingLimits, request.lockedAmountMinor)
        const result = Pricing.price({
          sending: sendingCurrency,
          receiving: receivingCurrency,
          lockedSide: request.lockedSide,
          lockedAmountMinor: request.lockedAmountMinor,
          rate: corridor.rate,
          payrailFee: corridor.payrailFee,
          platformFee: corridor.platformFee
        })
        if (Either.isLeft(result)) return yield* InvalidAmount.of(sendingCurrency.code, receivingCurrency.code)
        const priced = result.right
        yield* withinLimits(sendingLimits, priced.totalSendingMinor)
        return {
          sendingCurrency,
          receivingCurrency,
          priced,
          exchangeRate: Rate.toNumber(priced.rate),
          rateDetails: RateDetails.of(priced, corridor.payrailFee),
          rateUpdatedAt: corridor.fx.updatedAt,
          fx: corridor.fx,
          payrailFee: corridor.payrailFee,
          platformFee: corridor.platformFee
        } satisfies PricedQuote
      })
    }
  })
)
