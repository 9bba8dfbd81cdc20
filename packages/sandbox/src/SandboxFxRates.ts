import { Clock, DateTime, Effect, Hash, Layer, Option } from "effect"
import { AccountTypeCurrency, FxRates, PricingErrors, Rate } from "@payrail/core"

/**
 * The sandbox's exchange rates: plausible, deterministic mid rates for every pair of `Currency.registry` codes,
 * made from one table of units per US dollar, each moving by a small deterministic drift every 5 minutes of `Clock`
 * time (so an advanced sandbox clock, or a `TestClock`, sees rates change), with the spread a real provider charges.
 */

/** Units of each registry currency one US dollar buys, before drift (late-2025 levels, rounded). */
export const unitsPerUsd: Readonly<Record<string, string>> = {
  AED: "3.6725",
  BDT: "122",
  BRL: "5.4",
  BTC: "0.0000105263157895",
  BWP: "13.6",
  CAD: "1.39",
  CNY: "7.12",
  COP: "3900",
  DKK: "6.45",
  EGP: "47.5",
  EUR: "0.865",
  GBP: "0.76",
  GHS: "11.2",
  GTQ: "7.67",
  HKD: "7.78",
  HTG: "131",
  IDR: "16600",
  ILS: "3.3",
  INR: "88.6",
  JMD: "160",
  KES: "129.2",
  MWK: "1735",
  MXN: "18.4",
  MYR: "4.2",
  NGN: "1460",
  PHP: "58.7",
  PKR: "281",
  RWF: "1450",
  SGD: "1.3",
  THB: "32.5",
  TRY: "42",
  TZS: "2450",
  UGX: "3500",
  USD: "1",
  USDC: "1",
  USDT: "1",
  VND: "26300",
  XAF: "567",
  XOF: "567",
  ZAR: "17.3",
  ZMW: "22.5"
}

/** The currencies pegged to the dollar: no drift against it. */
const pegged: ReadonlySet<string> = new Set(["USD", "USDC", "USDT"])

/** How often rates move: every 5 minutes of clock time. */
export const bucketMillis = 5 * 60 * 1000

/** The widest drift of a currency against the dollar in one bucket, in basis points either way. */
export const maxDriftBps = 20

/** The spread between two fiat currencies, in basis points. */
export const fiatSpreadBps = 50

/** The spread when a crypto asset is on either side, in basis points. */
export const cryptoSpreadBps = 100

/** A currency's drift against the dollar in a bucket: a whole number of bps from -20 to 20 (0 for pegged ones). */
export const driftBps = (code: string, bucket: number): number => {
  if (pegged.has(code)) return 0
  const span = 2 * maxDriftBps + 1
  return ((((Hash.string(`${code}:${bucket}`) % span) + span) % span) - maxDriftBps) | 0
}

const baseRates: ReadonlyMap<string, Rate.Rate> = new Map(
  Object.entries(unitsPerUsd).map(([code, text]) => [code, Option.getOrThrow(Rate.fromString(text))])
)

/** The spread of a pair: wider when crypto is involved, none for the same currency. */
export const spreadBps = (from: string, to: string): number =>
  from === to
    ? 0
    : AccountTypeCurrency.cryptoCurrencyCodes.has(from) || AccountTypeCurrency.cryptoCurrencyCodes.has(to)
      ? cryptoSpreadBps
      : fiatSpreadBps

/**
 * The mid rate of `from` → `to` (units of `from` per unit of `to`) in the 5-minute bucket `bucket`, to 12 significant
 * digits; `None` for a code outside the table.
 */
export const midRate = (from: string, to: string, bucket: number): Option.Option<Rate.Rate> => {
  const fromBase = baseRates.get(from)
  const toBase = baseRates.get(to)
  if (fromBase === undefined || toBase === undefined) return Option.none()
  if (from === to) return Option.some(Rate.one)
  // (from per USD × (1 + drift_from)) / (to per USD × (1 + drift_to)), exactly, then rounded once.
  const numerator = fromBase.digits * 10n ** BigInt(toBase.scale) * BigInt(10_000 + driftBps(from, bucket))
  const denominator = toBase.digits * 10n ** BigInt(fromBase.scale) * BigInt(10_000 + driftBps(to, bucket))
  return Option.some(Rate.fromFraction(numerator, denominator, 12))
}

/** The sandbox rate of a pair at `nowMillis`, published at the start of its 5-minute bucket. */
export const rateAt = (from: string, to: string, nowMillis: number): Option.Option<FxRates.FxRate> => {
  const bucket = Math.floor(nowMillis / bucketMillis)
  return Option.map(midRate(from, to, bucket), (mid) => ({
    from,
    to,
    mid,
    spreadBps: spreadBps(from, to),
    updatedAt: DateTime.unsafeMake(bucket * bucketMillis)
  }))
}

/** The sandbox exchange-rate provider: `rateAt` the `Clock`'s time. Stateless. */
export const layer: Layer.Layer<FxRates.FxRates> = Layer.succeed(FxRates.FxRates, {
  rate: (from, to) =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMillis) =>
      Option.match(rateAt(from, to, nowMillis), {
        onNone: () => Effect.fail(PricingErrors.QuoteRateUnavailable.of(from, to)),
        onSome: Effect.succeed
      })
    )
})
