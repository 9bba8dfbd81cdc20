import { Effect, Option } from "effect"
import { Currency } from "../kernel/index.js"
import { FxRateCache, type PricingErrors } from "../payments/index.js"

/**
 * The factor that turns an amount of one currency into another at the mid-market rate, both in smallest units:
 * `to = from × numerator / denominator`.
 */
export interface Conversion {
  readonly numerator: bigint
  readonly denominator: bigint
}

const decimalsOf = (code: string): number =>
  Option.match(Currency.find(code), { onNone: () => 0, onSome: (currency) => currency.decimals })

/**
 * The mid-market factor from `from` to `to` now (through `FxRateCache`, so a rate is asked of the provider about once
 * per 5 minutes). The same currency is exactly one. `QUOTE_RATE_UNAVAILABLE` when the provider has no rate.
 */
export const conversion = (
  from: string,
  to: string
): Effect.Effect<Conversion, PricingErrors.QuoteRateUnavailable, FxRateCache.FxRateCache> => {
  if (from === to) return Effect.succeed({ numerator: 1n, denominator: 1n })
  return Effect.flatMap(FxRateCache.FxRateCache, (cache) =>
    // A rate's mid is its first currency's major units per one of its second's, so the pair `to → from` gives `to`
    // per `from`: to major = from major × mid, with mid = digits / 10^scale.
    Effect.map(cache.rate(to, from), (fx) => {
      const scaleTo = 10n ** BigInt(decimalsOf(to))
      const scaleFrom = 10n ** BigInt(decimalsOf(from))
      return {
        numerator: fx.mid.digits * scaleTo,
        denominator: 10n ** BigInt(fx.mid.scale) * scaleFrom
      }
    })
  )
}

/** `amountMinor` converted with `factor`, rounded up: a limit never lets a fraction of a unit through. */
export const applyRoundingUp = (amountMinor: bigint, factor: Conversion): bigint =>
  (amountMinor * factor.numerator + factor.denominator - 1n) / factor.denominator

/** `amountMinor` converted with `factor`, rounded down: a converted limit never grows. */
export const applyRoundingDown = (amountMinor: bigint, factor: Conversion): bigint =>
  (amountMinor * factor.numerator) / factor.denominator

/** `amountMinor` of `from` in the smallest unit of `to` at the mid-market rate now, rounded up. */
export const toPolicyCurrency = (
  amountMinor: bigint,
  from: string,
  to: string
): Effect.Effect<bigint, PricingErrors.QuoteRateUnavailable, FxRateCache.FxRateCache> =>
  Effect.map(conversion(from, to), (factor) => applyRoundingUp(amountMinor, factor))
