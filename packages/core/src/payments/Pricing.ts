import { Either } from "effect"
import type { Currency } from "../kernel/index.js"
import * as Rate from "./Rate.js"

/*
 * The arithmetic of a price: from a locked amount, a rate and fees to every amount of a quote, in integer minor
 * units, by the one rounding rule stated on `price` (and in docs/fx-and-fees.md).
 */

/** Which side of a quote the customer fixed: the amount sent, or the amount received. */
export type LockedSide = "SENDING" | "RECEIVING"

/** A fee in sending minor units: a fixed part plus `variableBps` basis points (an integer 0-10000) of the converted amount. */
export interface FeeTerms {
  readonly fixedMinor: bigint
  readonly variableBps: number
}

/** No fee at all. */
export const noFee: FeeTerms = { fixedMinor: 0n, variableBps: 0 }

/** What `price` needs. Amounts are minor units; `rate` is sending major units per receiving major unit. */
export interface PriceInput {
  readonly sending: Currency.Currency
  readonly receiving: Currency.Currency
  readonly lockedSide: LockedSide
  readonly lockedAmountMinor: bigint
  readonly rate: Rate.Rate
  readonly payrailFee: FeeTerms
  readonly platformFee: FeeTerms
}

/**
 * Every amount of a price, in minor units (sending ones except `totalReceivingMinor`). `feesMinor` is
 * `payrailFixedFeeMinor + payrailVariableFeeMinor + platformFeeMinor + roundingMinor`, and
 * `totalSendingMinor == convertedMinor + feesMinor` with `convertedMinor == ceil(totalReceivingMinor × k)`.
 */
export interface Priced {
  readonly totalSendingMinor: bigint
  readonly totalReceivingMinor: bigint
  /** The sending-minor cost of the received amount, `ceil(totalReceivingMinor × k)`. */
  readonly convertedMinor: bigint
  readonly payrailFixedFeeMinor: bigint
  readonly payrailVariableFeeMinor: bigint
  /** The platform's fee, fixed and variable parts together. */
  readonly platformFeeMinor: bigint
  /** What a locked sending amount leaves over after the largest receivable amount and its fees; 0 when RECEIVING is locked. */
  readonly roundingMinor: bigint
  readonly feesMinor: bigint
  /** The rate the price used: `Rate.one` for the same currency. */
  readonly rate: Rate.Rate
}

/** Why no price exists: the locked amount is not positive, or a locked sending amount buys no receiving unit. */
export type PricingRefusal = "receives_nothing"

/** `k` as a fraction `kNumerator / kDenominator` of positive integers. */
interface MinorRate {
  readonly numerator: bigint
  readonly denominator: bigint
}

const minorRateOf = (
  input: { readonly sending: Currency.Currency; readonly receiving: Currency.Currency },
  rate: Rate.Rate
): MinorRate => {
  const { numerator, denominator } = Rate.toFraction(rate)
  const shift = input.sending.decimals - input.receiving.decimals
  return shift >= 0
    ? { numerator: numerator * 10n ** BigInt(shift), denominator }
    : { numerator, denominator: denominator * 10n ** BigInt(-shift) }
}

/** `ceil(a / b)` for `a ≥ 0`, `b > 0`. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** `convert(R) = ceil(R × k)`. */
const convert = (receivingMinor: bigint, k: MinorRate): bigint => ceilDiv(receivingMinor * k.numerator, k.denominator)

/**
 * `ceil(amount × rate × 10^(to.decimals − from.decimals))`: what `amountMinor` minor units of `from` cost in minor
 * units of `to`, at `rate` (`to` major units per `from` major unit), rounded up. The conversion of the rule above,
 * for amounts that are not a quote's (a fixed fee configured in another currency). `amountMinor` is not negative.
 */
export const costInMinor = (amountMinor: bigint, from: Currency.Currency, to: Currency.Currency, rate: Rate.Rate) =>
  from.code === to.code ? amountMinor : convert(amountMinor, minorRateOf({ sending: to, receiving: from }, rate))

const checkedBps = (terms: FeeTerms): bigint => {
  if (!Number.isInteger(terms.variableBps) || terms.variableBps < 0 || terms.variableBps > 10_000) {
    throw new RangeError("variableBps is an integer from 0 to 10000")
  }
  if (terms.fixedMinor < 0n) throw new RangeError("a fixed fee is not negative")
  return BigInt(terms.variableBps)
}

/** `ceil(C × bps / 10000)`: the variable part of a fee on the converted amount C. */
export const variableFee = (convertedMinor: bigint, variableBps: number): bigint =>
  ceilDiv(convertedMinor * BigInt(variableBps), 10_000n)

interface Fees {
  readonly payrailVariable: bigint
  readonly platform: bigint
}

const feesOn = (convertedMinor: bigint, input: PriceInput): Fees => ({
  payrailVariable: variableFee(convertedMinor, input.payrailFee.variableBps),
  platform: input.platformFee.fixedMinor + variableFee(convertedMinor, input.platformFee.variableBps)
})

/** `C + payrail(C) + platform(C)`: the sending total of a converted amount C, strictly increasing in C. */
const totalOf = (convertedMinor: bigint, input: PriceInput): bigint => {
  const fees = feesOn(convertedMinor, input)
  return convertedMinor + input.payrailFee.fixedMinor + fees.payrailVariable + fees.platform
}

/**
 * The largest converted amount C ≥ 0 whose total with fees is at most `sendingMinor`, or -1 when even C = 0 costs more.
 * The estimate `(S − fixed) × 10000 / (10000 + bps)` is never below the answer and at most 2 above it (each of the two
 * variable fees rounds up by less than one unit), so at most two steps correct it.
 */
const largestConverted = (sendingMinor: bigint, input: PriceInput): bigint => {
  const fixed = input.payrailFee.fixedMinor + input.platformFee.fixedMinor
  const bps = checkedBps(input.payrailFee) + checkedBps(input.platformFee)
  if (sendingMinor < fixed) return -1n
  let converted = ((sendingMinor - fixed) * 10_000n) / (10_000n + bps)
  while (converted >= 0n && totalOf(converted, input) > sendingMinor) converted -= 1n
  return converted
}

const priced = (
  input: PriceInput,
  rate: Rate.Rate,
  receivingMinor: bigint,
  convertedMinor: bigint,
  sendingMinor: bigint
): Priced => {
  const fees = feesOn(convertedMinor, input)
  const payrailFixedFeeMinor = input.payrailFee.fixedMinor
  const roundingMinor = sendingMinor - convertedMinor - payrailFixedFeeMinor - fees.payrailVariable - fees.platform
  return {
    totalSendingMinor: sendingMinor,
    totalReceivingMinor: receivingMinor,
    convertedMinor,
    payrailFixedFeeMinor,
    payrailVariableFeeMinor: fees.payrailVariable,
    platformFeeMinor: fees.platform,
    roundingMinor,
    feesMinor: payrailFixedFeeMinor + fees.payrailVariable + fees.platform + roundingMinor,
    rate
  }
}

/**
 * Prices a transfer in integer minor units by THE rounding rule (docs/fx-and-fees.md has a worked example):
 *
 * - `k = rate × 10^(sending.decimals − receiving.decimals)`: sending minor units per receiving minor unit, an exact
 *   rational. The same currency on both sides always prices at `k = 1` (the rate given is not used).
 * - `convert(R) = ceil(R × k)`: what R receiving minor units cost in sending minor units.
 * - Fees are on the converted amount C: `fee(C) = fixedMinor + ceil(C × variableBps / 10000)`, once for Payrail's fee
 *   and once for the platform's.
 * - Locked RECEIVING (R given): `C = convert(R)`, `S = C + payrail + platform`, no rounding.
 * - Locked SENDING (S given): R is the LARGEST R ≥ 1 with `convert(R) + fees(convert(R)) ≤ S`; what is left over,
 *   `rounding = S − C − payrail − platform`, is kept as part of the fees (0 ≤ rounding, and it is less than the cost of
 *   one more receiving unit with its fees). When no R ≥ 1 fits, the price is refused: `receives_nothing`.
 * - `feesMinor = payrail + platform + rounding`, so in both modes, exactly:
 *   `totalSendingMinor == ceil(totalReceivingMinor × k) + feesMinor`.
 *
 * Every rounding favours the platform: the customer never receives more than was paid for.
 *
 * Pure and exact (bigint throughout; computed, never a loop over amounts). Refuses with `receives_nothing` when the
 * locked amount is not positive, or when a locked sending amount does not cover one receiving minor unit with its
 * fees. Throws a `RangeError` for fee terms outside their ranges (a defect of the caller: fees come from validated
 * configuration).
 */
export const price = (input: PriceInput): Either.Either<Priced, PricingRefusal> => {
  const rate = input.sending.code === input.receiving.code ? Rate.one : input.rate
  const k = minorRateOf(input, rate)
  checkedBps(input.payrailFee)
  checkedBps(input.platformFee)
  if (input.lockedAmountMinor <= 0n) return Either.left("receives_nothing")
  if (input.lockedSide === "RECEIVING") {
    const converted = convert(input.lockedAmountMinor, k)
    return Either.right(priced(input, rate, input.lockedAmountMinor, converted, totalOf(converted, input)))
  }
  const budget = largestConverted(input.lockedAmountMinor, input)
  // convert(R) ≤ budget ⇔ R × k ≤ budget (budget is an integer) ⇔ R ≤ budget / k: exact, whatever k's size.
  const receiving = budget < 0n ? 0n : (budget * k.denominator) / k.numerator
  if (receiving < 1n) return Either.left("receives_nothing")
  return Either.right(priced(input, rate, receiving, convert(receiving, k), input.lockedAmountMinor))
}
