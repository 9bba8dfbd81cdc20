import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import * as fc from "fast-check"
import { Rate } from "@payrail/core"

const significantDigits = (rate: Rate.Rate) => rate.digits.toString().replace(/0+$/, "").length
const read = (text: string) => Option.getOrThrow(Rate.fromString(text))

describe("Rate", () => {
  it("reads plain decimals and exponent notation, and formats them back plainly", () => {
    expect(Rate.format(read("17.250"))).toBe("17.25")
    expect(read("17.250")).toEqual({ digits: 1725n, scale: 2 })
    expect(Rate.format(read("0.0000105263"))).toBe("0.0000105263")
    expect(Rate.format(read("1.05e-7"))).toBe("0.000000105")
    expect(Rate.format(read("9.5E4"))).toBe("95000")
    expect(Rate.format(read("95000"))).toBe("95000")
    expect(Rate.format(Rate.one)).toBe("1")
  })

  it("refuses what is not a positive decimal", () => {
    for (const text of ["", "0", "0.000", "-1", "+1", " 1", "1.", ".5", "1,5", "0x10", "1e1001", "NaN", "Infinity"]) {
      expect(Rate.fromString(text), text).toEqual(Option.none())
    }
  })

  it("rounds up to significant digits, never below the rate", () => {
    expect(Rate.format(Rate.roundUpToSignificant(read("1.23456789012345"), 12))).toBe("1.23456789013")
    expect(Rate.format(Rate.roundUpToSignificant(read("0.00009999999999999"), 12))).toBe("0.0001")
    expect(Rate.format(Rate.roundUpToSignificant(read("123456789012345"), 12))).toBe("123456789013000")
    expect(Rate.roundUpToSignificant(read("1.5"), 12)).toEqual(read("1.5"))
  })

  it("gives JavaScript numbers whose text is the 12-digit decimal", () => {
    expect(Rate.toNumber(read("0.0546448087432"))).toBe(0.0546448087432)
    expect(Rate.toNumber(read("1.23456789012345"))).toBe(1.23456789012)
    expect(Rate.toNumber(read("95000"))).toBe(95000)
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n - 1n }), fc.integer({ min: 0, max: 30 }), (digits, scale) => {
        const rate = Rate.make(digits, scale)
        expect(Option.getOrThrow(Rate.fromString(String(Rate.toNumber(rate))))).toEqual(rate)
      })
    )
  })

  it("multiplies exactly, inverts to 12 digits and compares", () => {
    expect(Rate.format(Rate.multiply(read("0.0546"), read("1.005")))).toBe("0.054873")
    expect(Rate.format(Rate.reciprocal(read("0.0546448087432"), 12))).toBe("18.3")
    expect(Rate.format(Rate.reciprocal(read("3"), 12))).toBe("0.333333333333")
    expect(Rate.format(Rate.reciprocal(read("1.5"), 12))).toBe("0.666666666667")
    expect(Rate.format(Rate.reciprocal(read("4"), 12))).toBe("0.25")
    expect(Rate.compare(read("0.1"), read("0.10"))).toBe(0)
    expect(Rate.compare(read("0.1"), read("0.09"))).toBe(1)
    expect(Rate.compare(read("2"), read("10"))).toBe(-1)
  })

  it("rounds fractions within one unit of the last kept digit, in the direction asked", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: 1, max: 15 }),
        (n, d, significant) => {
          const up = Rate.fromFraction(n, d, significant, "up")
          const nearest = Rate.fromFraction(n, d, significant, "nearest")
          // up ≥ n/d, and at most one unit of its last significant digit above it.
          const scaled = (rate: Rate.Rate) => rate.digits * d
          const target = n * 10n ** BigInt(up.scale)
          expect(scaled(up) >= target).toBe(true)
          expect(significantDigits(up)).toBeLessThanOrEqual(significant)
          expect(significantDigits(nearest)).toBeLessThanOrEqual(significant)
          expect(Rate.compare(nearest, up)).toBeLessThanOrEqual(0)
        }
      )
    )
  })
})
