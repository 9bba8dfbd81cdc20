import { Context, type DateTime, type Effect } from "effect"
import type { QuoteRateUnavailable } from "./PricingErrors.js"
import * as Rate from "./Rate.js"

/**
 * Exchange rates from a provider: the mid-market rate of a currency pair and the spread the provider charges on it.
 * `@payrail/sandbox` implements the port with deterministic rates; a real provider plugs in here.
 */

/**
 * The rate of the pair `from` → `to` at `updatedAt`: `mid` is `from` (sending) major units per `to` (receiving) major
 * unit at mid-market, and `spreadBps` (a whole number, 0 or more) is what the customer pays above it, in basis points.
 */
export interface FxRate {
  readonly from: string
  readonly to: string
  readonly mid: Rate.Rate
  readonly spreadBps: number
  readonly updatedAt: DateTime.Utc
}

/**
 * The exchange-rate provider. `rate` is read-only and keeps no state a caller could change, so concurrent calls are
 * independent; it may answer differently as time passes (read from `Clock`), and fails with `QuoteRateUnavailable`
 * when it has no rate for the pair now. Callers go through `FxRateCache`, which asks it at most about once per pair
 * every 5 minutes and never for the same currency on both sides.
 */
export class FxRates extends Context.Tag("@payrail/core/FxRates")<
  FxRates,
  {
    readonly rate: (from: string, to: string) => Effect.Effect<FxRate, QuoteRateUnavailable>
  }
>() {}

/** How many significant digits a customer's rate keeps. */
export const appliedSignificantDigits = 12

/**
 * The customer's rate: `mid × (1 + spreadBps / 10000)`, rounded UP to 12 significant digits, so the customer pays at
 * least the spread and never less (the rounding is in the platform's favour).
 */
export const applied = (fx: FxRate): Rate.Rate =>
  Rate.roundUpToSignificant(
    Rate.multiply(fx.mid, Rate.make(BigInt(10_000 + fx.spreadBps), 4)),
    appliedSignificantDigits
  )
