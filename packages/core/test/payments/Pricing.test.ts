import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import * as fc from "fast-check"
import { Currency, Pricing, Rate } from "@payrail/core"

const currency = (code: string) => Option.getOrThrow(Currency.find(code))
const usd = currency("USD")
const mxn = currency("MXN")
const read = (text: string) => Option.getOrThrow(Rate.fromString(text))

// An independent statement of the rule, to check `Pricing.price` against.
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
const model = (input: Pricing.PriceInput) => {
  const rate = input.sending.code === input.receiving.code ? Rate.one : input.rate
  const shift = input.sending.decimals - input.receiving.decimals
  const numerator = rate.digits * 10n ** BigInt(Math.max(0, shift))
  const denominator = 10n ** BigInt(rate.scale) * 10n ** BigInt(Math.max(0, -shift))
  const convert = (receivingMinor: bigint) => ceilDiv(receivingMinor * numerator, denominator)
  const fee = (converted: bigint, terms: Pricing.FeeTerms) =>
    terms.fixedMinor + ceilDiv(converted * BigInt(terms.variableBps), 10_000n)
  const total = (receivingMinor: bigint) => {
    const converted = convert(receivingMinor)
    return converted + fee(converted, input.payrailFee) + fee(converted, input.platformFee)
  }
  return { convert, total }
}

const currencies = fc.constantFrom("XOF", "USD", "USDC", "BTC").map(currency)
/** Rates from 1e-9 to 1e6: a mantissa of up to 12 digits at a decimal exponent from -9 to 5. */
const rates = fc
  .tuple(
    fc.oneof(fc.bigInt({ min: 10n ** 11n, max: 10n ** 12n - 1n }), fc.bigInt({ min: 1n, max: 999n })),
    fc.integer({ min: -9, max: 5 })
  )
  .map(([mantissa, exponent]) => {
    const scale = mantissa.toString().length - 1 - exponent
    return scale >= 0 ? Rate.make(mantissa, scale) : Rate.make(mantissa * 10n ** BigInt(-scale), 0)
  })
const fees = fc.record({
  fixedMinor: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1_000_000n })),
  variableBps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 10_000 }))
})
const amounts = fc.oneof(
  fc.bigInt({ min: 1n, max: 9n * 10n ** 15n }),
  fc.bigInt({ min: 1n, max: 100_000n }),
  fc.bigInt({ min: 1n, max: 100n })
)
const inputs = (lockedSide: Pricing.LockedSide) =>
  fc.record({
    sending: currencies,
    receiving: currencies,
    lockedSide: fc.constant(lockedSide),
    lockedAmountMinor: amounts,
    rate: rates,
    payrailFee: fees,
    platformFee: fees
  })

const checkInvariant = (input: Pricing.PriceInput, priced: Pricing.Priced) => {
  const { convert } = model(input)
  expect(priced.convertedMinor).toBe(convert(priced.totalReceivingMinor))
  expect(priced.totalSendingMinor).toBe(convert(priced.totalReceivingMinor) + priced.feesMinor)
  expect(priced.feesMinor).toBe(
    priced.payrailFixedFeeMinor + priced.payrailVariableFeeMinor + priced.platformFeeMinor + priced.roundingMinor
  )
  expect(priced.totalReceivingMinor >= 1n).toBe(true)
  expect(priced.roundingMinor >= 0n).toBe(true)
}

const runs = { numRuns: 3000 }

describe("Pricing.price", () => {
  it("locked SENDING: the largest receivable amount, the invariant, and a rounding below one more unit", () => {
    fc.assert(
      fc.property(inputs("SENDING"), (input) => {
        const { total } = model(input)
        const result = Pricing.price(input)
        if (Either.isLeft(result)) {
          expect(result.left).toBe("receives_nothing")
          expect(total(1n) > input.lockedAmountMinor).toBe(true)
          return
        }
        const priced = result.right
        checkInvariant(input, priced)
        expect(priced.totalSendingMinor).toBe(input.lockedAmountMinor)
        expect(total(priced.totalReceivingMinor) <= input.lockedAmountMinor).toBe(true)
        const next = total(priced.totalReceivingMinor + 1n)
        expect(next > input.lockedAmountMinor).toBe(true)
        expect(priced.roundingMinor < next - total(priced.totalReceivingMinor)).toBe(true)
      }),
      runs
    )
  })

  it("locked RECEIVING: exactly the amount asked, no rounding, the invariant", () => {
    fc.assert(
      fc.property(inputs("RECEIVING"), (input) => {
        const priced = Either.getOrThrow(Pricing.price(input))
        checkInvariant(input, priced)
        expect(priced.totalReceivingMinor).toBe(input.lockedAmountMinor)
        expect(priced.roundingMinor).toBe(0n)
        expect(priced.totalSendingMinor).toBe(model(input).total(input.lockedAmountMinor))
      }),
      runs
    )
  })

  it("sending what a locked RECEIVING price costs receives at least that amount, at the same total", () => {
    fc.assert(
      fc.property(inputs("RECEIVING"), (input) => {
        const receiving = Either.getOrThrow(Pricing.price(input))
        const sending = Either.getOrThrow(
          Pricing.price({ ...input, lockedSide: "SENDING", lockedAmountMinor: receiving.totalSendingMinor })
        )
        expect(sending.totalReceivingMinor >= receiving.totalReceivingMinor).toBe(true)
        expect(sending.totalSendingMinor).toBe(receiving.totalSendingMinor)
      }),
      runs
    )
  })

  it("prices the same currency at one, whatever rate it is given", () => {
    const priced = Either.getOrThrow(
      Pricing.price({
        sending: usd,
        receiving: usd,
        lockedSide: "SENDING",
        lockedAmountMinor: 10_000n,
        rate: read("17"),
        payrailFee: Pricing.noFee,
        platformFee: { fixedMinor: 30n, variableBps: 100 }
      })
    )
    expect(priced).toMatchObject({
      totalSendingMinor: 10_000n,
      totalReceivingMinor: 9871n,
      convertedMinor: 9871n,
      platformFeeMinor: 129n,
      roundingMinor: 0n,
      feesMinor: 129n,
      rate: Rate.one
    })
  })

  it("works the documented example (docs/fx-and-fees.md)", () => {
    const input: Pricing.PriceInput = {
      sending: usd,
      receiving: mxn,
      lockedSide: "SENDING",
      lockedAmountMinor: 10_107n,
      rate: read("0.0546448087432"),
      payrailFee: { fixedMinor: 0n, variableBps: 25 },
      platformFee: { fixedMinor: 30n, variableBps: 50 }
    }
    expect(Either.getOrThrow(Pricing.price(input))).toEqual({
      totalSendingMinor: 10_107n,
      totalReceivingMinor: 182_999n,
      convertedMinor: 10_000n,
      payrailFixedFeeMinor: 0n,
      payrailVariableFeeMinor: 25n,
      platformFeeMinor: 80n,
      roundingMinor: 2n,
      feesMinor: 107n,
      rate: input.rate
    })
    // One more centavo would cost 10,001 + 26 + 81 = 10,108 cents; locking what was received costs 2 cents less.
    expect(
      Either.getOrThrow(Pricing.price({ ...input, lockedSide: "RECEIVING", lockedAmountMinor: 183_000n }))
        .totalSendingMinor
    ).toBe(10_108n)
    expect(
      Either.getOrThrow(Pricing.price({ ...input, lockedSide: "RECEIVING", lockedAmountMinor: 182_999n }))
    ).toMatchObject({ totalSendingMinor: 10_105n, feesMinor: 105n, roundingMinor: 0n })
  })

  it("refuses an amount that buys nothing, and a non-positive one", () => {
    const base: Pricing.PriceInput = {
      sending: usd,
      receiving: mxn,
      lockedSide: "SENDING",
      lockedAmountMinor: 30n,
      rate: read("0.0546448087432"),
      payrailFee: { fixedMinor: 0n, variableBps: 25 },
      platformFee: { fixedMinor: 30n, variableBps: 0 }
    }
    expect(Pricing.price(base)).toEqual(Either.left("receives_nothing"))
    expect(Either.isRight(Pricing.price({ ...base, lockedAmountMinor: 32n }))).toBe(true)
    expect(Pricing.price({ ...base, lockedAmountMinor: 0n })).toEqual(Either.left("receives_nothing"))
    expect(Pricing.price({ ...base, lockedSide: "RECEIVING", lockedAmountMinor: -1n })).toEqual(
      Either.left("receives_nothing")
    )
  })

  it("converts other amounts by the same rule, rounded up", () => {
    // 1.00 EUR at 1.16 USD per EUR is 116 cents; 1 XOF at 0.00176 USD per XOF is 0.176 cents, so 1 cent.
    expect(Pricing.costInMinor(100n, currency("EUR"), usd, read("1.16"))).toBe(116n)
    expect(Pricing.costInMinor(1n, currency("XOF"), usd, read("0.00176"))).toBe(1n)
    expect(Pricing.costInMinor(250n, usd, usd, read("3"))).toBe(250n)
  })
})
