import { Option } from "effect"
import type { Currency } from "../kernel/index.js"
import { type Platform, PlatformConfig } from "../platforms/index.js"
import type { FeeTerms } from "./Pricing.js"

/**
 * Which fees a price carries (docs/fx-and-fees.md):
 *
 * - **Payrail's own fee**: none when both sides are in the same currency; `payrailCrossCurrencyBps` (25 bps, no fixed
 *   part) of the converted amount across currencies.
 * - **The platform's fee**: the quote's `platformFeeOverride` when it has one (in any corridor); otherwise, across
 *   currencies only, the platform's active `feeConfigs` entry of type `CROSS_CURRENCY_TRANSACTION` whose
 *   `sourceCurrency` is the sending currency; otherwise none.
 *
 * A fixed fee is configured in a currency of its own; pricing converts it to sending minor units at the mid rate,
 * rounded up (`Pricing.costInMinor`).
 */

/** Payrail's variable fee on cross-currency transfers, in basis points of the converted amount. */
export const payrailCrossCurrencyBps = 25

/** Payrail's own fee for a transfer from `sending` to `receiving`. */
export const payrailFee = (sending: Currency.Currency, receiving: Currency.Currency): FeeTerms =>
  sending.code === receiving.code
    ? { fixedMinor: 0n, variableBps: 0 }
    : { fixedMinor: 0n, variableBps: payrailCrossCurrencyBps }

/** A quote's own platform fee, replacing the configured one (the reference's `platformFeeOverride`). */
export interface PlatformFeeOverride {
  readonly fixedFee: { readonly amount: number; readonly currency: string }
  readonly variableFeeBps: number
}

/** A platform fee as configured: a fixed amount in minor units of `fixedCurrency`, and basis points. */
export interface PlatformFeeSpec {
  readonly fixedMinor: bigint
  readonly fixedCurrency: string
  readonly variableBps: number
}

/**
 * The platform fee that applies to a transfer from `sending` to `receiving`, before its fixed part is converted to
 * the sending currency; `None` when no fee applies.
 */
export const platformFeeSpec = (
  platform: Platform.Platform,
  sending: Currency.Currency,
  receiving: Currency.Currency,
  override?: PlatformFeeOverride
): Option.Option<PlatformFeeSpec> => {
  if (override !== undefined) {
    return Option.some({
      fixedMinor: BigInt(override.fixedFee.amount),
      fixedCurrency: override.fixedFee.currency,
      variableBps: override.variableFeeBps
    })
  }
  if (sending.code === receiving.code) return Option.none()
  return Option.map(
    Option.fromNullable(
      platform.config.feeConfigs.find(
        (fee) =>
          fee.feeType === "CROSS_CURRENCY_TRANSACTION" &&
          fee.sourceCurrency === sending.code &&
          PlatformConfig.isActiveFee(fee)
      )
    ),
    (fee) => ({
      fixedMinor: BigInt(fee.fixedFee.amount),
      fixedCurrency: fee.fixedFee.currency,
      variableBps: fee.variableFeeBps
    })
  )
}
