import { Option } from "effect"

/**
 * An exact, strictly positive decimal rate: `digits / 10^scale`. Everywhere in Payrail a rate between two currencies
 * means **sending major units per receiving major unit** (the reference's `exchangeRate`): a rate of `0.055` from USD
 * to MXN says one peso costs 0.055 dollars. Rates are kept exact as decimals, never as floats, so prices computed
 * from them are reproducible to the minor unit; `toNumber` is for the wire only.
 */
export interface Rate {
  /** The decimal's significant digits as an integer, greater than zero and without trailing zeros when `scale > 0`. */
  readonly digits: bigint
  /** How many of `digits` lie after the decimal point (at least 0). */
  readonly scale: number
}

const ten = (power: number): bigint => 10n ** BigInt(power)

/** The normal form of a positive decimal: no trailing zeros after the point, so equal rates are equal records. */
const normalize = (digits: bigint, scale: number): Rate => {
  let d = digits
  let s = scale
  while (s > 0 && d % 10n === 0n) {
    d /= 10n
    s -= 1
  }
  return { digits: d, scale: s }
}

/**
 * The rate `digits / 10^scale`. Throws a `RangeError` for a rate that is not strictly positive or a scale that is not a
 * non-negative integer: callers build rates from validated numbers only.
 */
export const make = (digits: bigint, scale: number): Rate => {
  if (digits <= 0n) throw new RangeError("a rate is strictly positive")
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError("a rate's scale is a non-negative integer")
  return normalize(digits, scale)
}

/** The rate 1 (the same currency on both sides). */
export const one: Rate = { digits: 1n, scale: 0 }

/** Whether two rates have the same value. */
export const equals = (a: Rate, b: Rate): boolean => a.digits === b.digits && a.scale === b.scale

const decimalPattern = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/**
 * Reads a plain decimal (`"17.25"`, `"0.000010526"`) or one in exponent notation as JavaScript prints small numbers
 * (`"1.05e-7"`). `None` for anything else: signs, blanks, zero, or an exponent beyond ±1000.
 */
export const fromString = (text: string): Option.Option<Rate> => {
  const match = decimalPattern.exec(text)
  if (match === null) return Option.none()
  const fraction = match[2] ?? ""
  const exponent = match[3] === undefined ? 0 : Number(match[3])
  if (Math.abs(exponent) > 1000) return Option.none()
  const digits = BigInt(`${match[1]}${fraction}`)
  if (digits === 0n) return Option.none()
  const scale = fraction.length - exponent
  return Option.some(scale >= 0 ? normalize(digits, scale) : { digits: digits * ten(-scale), scale: 0 })
}

/** The rate as a plain decimal string, without exponent or trailing zeros (`"0.0551"`, `"95000"`). */
export const format = (rate: Rate): string => {
  const text = rate.digits.toString()
  if (rate.scale === 0) return text
  const padded = text.padStart(rate.scale + 1, "0")
  return `${padded.slice(0, -rate.scale)}.${padded.slice(-rate.scale)}`
}

const significantDigitsOf = (digits: bigint): number => digits.toString().length

type Rounding = "up" | "nearest"

/** `n / d` (both positive) rounded to `significant` significant digits, up or to the nearest (halves up). */
export const fromFraction = (n: bigint, d: bigint, significant: number, rounding: Rounding = "nearest"): Rate => {
  if (n <= 0n || d <= 0n) throw new RangeError("a rate is strictly positive")
  if (!Number.isInteger(significant) || significant < 1) throw new RangeError("at least one significant digit")
  // 10^exponent ≤ n/d < 10^(exponent + 1), from the digit counts, corrected by one step if needed.
  let exponent = significantDigitsOf(n) - significantDigitsOf(d)
  const atLeast = (power: number) => (power >= 0 ? n >= d * ten(power) : n * ten(-power) >= d)
  if (!atLeast(exponent)) exponent -= 1
  // Scale the fraction so that its integer part has exactly `significant` digits.
  const shift = significant - 1 - exponent
  const numerator = shift >= 0 ? n * ten(shift) : n
  const denominator = shift >= 0 ? d : d * ten(-shift)
  const quotient = numerator / denominator
  const remainder = numerator % denominator
  const bump = remainder === 0n ? 0n : rounding === "up" ? 1n : 2n * remainder >= denominator ? 1n : 0n
  const rounded = quotient + bump
  return shift >= 0 ? normalize(rounded, shift) : { digits: rounded * ten(-shift), scale: 0 }
}

/** The rate as the fraction `numerator / denominator` of positive integers. */
export const toFraction = (rate: Rate): { readonly numerator: bigint; readonly denominator: bigint } => ({
  numerator: rate.digits,
  denominator: ten(rate.scale)
})

/** `rate` rounded UP to at most `significant` significant digits: never below `rate` (used for a customer's rate). */
export const roundUpToSignificant = (rate: Rate, significant: number): Rate =>
  significantDigitsOf(rate.digits) <= significant ? rate : fromFraction(rate.digits, ten(rate.scale), significant, "up")

/** The exact product of two rates. */
export const multiply = (a: Rate, b: Rate): Rate => normalize(a.digits * b.digits, a.scale + b.scale)

/** `1 / rate` (receiving units per sending unit), rounded to the nearest at `significant` significant digits. */
export const reciprocal = (rate: Rate, significant: number): Rate =>
  fromFraction(ten(rate.scale), rate.digits, significant, "nearest")

/** The most significant digits a JavaScript number carries so that its decimal text reads back unchanged. */
export const maxNumberDigits = 12

/**
 * The rate as a JavaScript number for the wire: rounded to the nearest at 12 significant digits first, so the
 * number's shortest decimal text (what `JSON.stringify` writes) is that 12-digit decimal exactly. A rate already at
 * 12 digits or fewer (every applied rate) converts without any rounding.
 */
export const toNumber = (rate: Rate): number => {
  const rounded =
    significantDigitsOf(rate.digits) <= maxNumberDigits
      ? rate
      : fromFraction(rate.digits, ten(rate.scale), maxNumberDigits, "nearest")
  return Number(format(rounded))
}

/** `-1`, `0` or `1` as `a` is below, equal to or above `b`. */
export const compare = (a: Rate, b: Rate): -1 | 0 | 1 => {
  const left = a.digits * ten(b.scale)
  const right = b.digits * ten(a.scale)
  return left < right ? -1 : left > right ? 1 : 0
}
