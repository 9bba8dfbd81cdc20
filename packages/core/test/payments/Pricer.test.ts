import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer, Option } from "effect"
import {
  FxRateCache,
  FxRates,
  Platform,
  PlatformConfig,
  Platforms,
  Pricer,
  PricingErrors,
  Rate,
  RateDetails
} from "@payrail/core"

/** Mid rates (sending per receiving) the fake provider knows; every other pair has no rate. */
const mids: Readonly<Record<string, string>> = {
  "USD>MXN": "0.05",
  "MXN>USD": "20",
  "USD>EUR": "1.16",
  "MXN>EUR": "23.2",
  "USD>BTC": "95000"
}

const provider = Layer.succeed(FxRates.FxRates, {
  rate: (from, to) => {
    const mid = mids[`${from}>${to}`]
    return mid === undefined
      ? Effect.fail(PricingErrors.QuoteRateUnavailable.of(from, to))
      : Effect.succeed({
          from,
          to,
          mid: Option.getOrThrow(Rate.fromString(mid)),
          spreadBps: 50,
          updatedAt: DateTime.unsafeMake(600_000)
        })
  }
})

const pricerLayer = Pricer.layer.pipe(Layer.provide(FxRateCache.layer), Layer.provide(provider))

const currency = (currencyCode: string, minAmount: number, maxAmount: number) =>
  new Platform.SupportedCurrency({
    currencyCode: currencyCode as Platform.SupportedCurrency["currencyCode"],
    minAmount,
    maxAmount
  })

const platformWith = (feeConfigs: ReadonlyArray<PlatformConfig.FeeConfig> = []) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "Pricing",
    environment: "SANDBOX",
    config: new PlatformConfig.PlatformConfig({
      ...Platforms.defaultConfig,
      supportedCurrencies: [
        currency("USD", 100, 1_000_000_00),
        currency("MXN", 1_000, 50_000_000_00),
        currency("BTC", 1, 10_000_000_000),
        currency("EUR", 1, 1_000_000_00)
      ],
      feeConfigs
    }),
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

const usdFee = (variableFeeBps: number, amount: number, feeCurrency = "USD") =>
  new PlatformConfig.FeeConfig({
    feeType: "CROSS_CURRENCY_TRANSACTION",
    sourceCurrency: "USD",
    variableFeeBps,
    fixedFee: { amount, currency: feeCurrency as PlatformConfig.FeeConfig["fixedFee"]["currency"] }
  })

const price = (platform: Platform.Platform, request: Pricer.PriceRequest) =>
  Effect.flatMap(Pricer.Pricer, (pricer) => pricer.price(platform, request))

describe("Pricer", () => {
  it.effect("prices across currencies at the rate with its spread, with Payrail's and the platform's fees", () =>
    Effect.gen(function* () {
      const quote = yield* price(platformWith([usdFee(50, 30)]), {
        sendingCurrency: "USD",
        receivingCurrency: "MXN",
        lockedSide: "RECEIVING",
        lockedAmountMinor: 100_000n
      })
      // 0.05 × 1.005 = 0.05025 USD per peso: 1,000.00 MXN cost 5,025 cents; fees 13 (Payrail) + 30 + 26 (platform).
      expect(quote.priced).toMatchObject({
        totalReceivingMinor: 100_000n,
        convertedMinor: 5_025n,
        payrailFixedFeeMinor: 0n,
        payrailVariableFeeMinor: 13n,
        platformFeeMinor: 56n,
        roundingMinor: 0n,
        feesMinor: 69n,
        totalSendingMinor: 5_094n
      })
      expect(quote.exchangeRate).toBe(0.05025)
      expect(quote.sendingCurrency.code).toBe("USD")
      expect(quote.receivingCurrency).toMatchObject({ code: "MXN", decimals: 2 })
      expect(quote.payrailFee).toEqual({ fixedMinor: 0n, variableBps: 25 })
      expect(quote.platformFee).toEqual({ fixedMinor: 30n, variableBps: 50 })
      expect(DateTime.toEpochMillis(quote.rateUpdatedAt)).toBe(600_000)
      expect(quote.rateDetails).toEqual({
        counterpartyMultiplier: 1,
        counterpartyFixedFee: 0,
        gridApiMultiplier: 19.9004975124,
        gridApiFixedFee: 0,
        gridApiVariableFeeRate: 0.0025,
        gridApiVariableFeeAmount: 13
      })
    }).pipe(Effect.provide(pricerLayer))
  )

  it.effect("charges no fee in the same currency unless the quote overrides the platform's", () =>
    Effect.gen(function* () {
      const platform = platformWith([usdFee(50, 30)])
      const same = yield* price(platform, {
        sendingCurrency: "USD",
        receivingCurrency: "USD",
        lockedSide: "SENDING",
        lockedAmountMinor: 10_000n
      })
      expect(same.priced).toMatchObject({ totalReceivingMinor: 10_000n, feesMinor: 0n, rate: Rate.one })
      expect(same.exchangeRate).toBe(1)
      expect(same.rateDetails).toMatchObject({ gridApiMultiplier: 1, gridApiVariableFeeRate: 0 })
      const overridden = yield* price(platform, {
        sendingCurrency: "USD",
        receivingCurrency: "USD",
        lockedSide: "SENDING",
        lockedAmountMinor: 10_000n,
        platformFeeOverride: { fixedFee: { amount: 10, currency: "USD" }, variableFeeBps: 100 }
      })
      // R + 10 + ceil(R / 100) ≤ 10,000: R = 9,891 (10 + 99 in fees).
      expect(overridden.priced).toMatchObject({ totalReceivingMinor: 9_891n, platformFeeMinor: 109n, feesMinor: 109n })
    }).pipe(Effect.provide(pricerLayer))
  )

  it.effect(
    "takes the fee of the sending currency only, and converts a fixed fee in another currency at the mid rate, up",
    () =>
      Effect.gen(function* () {
        const fromMxn = yield* price(platformWith([usdFee(50, 30)]), {
          sendingCurrency: "MXN",
          receivingCurrency: "USD",
          lockedSide: "RECEIVING",
          lockedAmountMinor: 1_000n
        })
        expect(fromMxn.platformFee).toEqual({ fixedMinor: 0n, variableBps: 0 })
        expect(fromMxn.priced.platformFeeMinor).toBe(0n)
        // 0.07 EUR at 1.16 USD per EUR is 8.12 cents: 9 cents.
        const eurFixed = yield* price(platformWith([usdFee(0, 7, "EUR")]), {
          sendingCurrency: "USD",
          receivingCurrency: "MXN",
          lockedSide: "RECEIVING",
          lockedAmountMinor: 100_000n
        })
        expect(eurFixed.platformFee).toEqual({ fixedMinor: 9n, variableBps: 0 })
        expect(eurFixed.priced.platformFeeMinor).toBe(9n)
      }).pipe(Effect.provide(pricerLayer))
  )

  it.effect("refuses currencies the platform does not support or Payrail does not know", () =>
    Effect.gen(function* () {
      const platform = platformWith()
      const request = { lockedSide: "SENDING", lockedAmountMinor: 10_000n } as const
      expect(
        yield* Effect.exit(price(platform, { ...request, sendingCurrency: "GBP", receivingCurrency: "USD" }))
      ).toEqual(Exit.fail(PricingErrors.InvalidCurrency.of("GBP", "currency_not_supported_by_platform")))
      expect(
        yield* Effect.exit(price(platform, { ...request, sendingCurrency: "USD", receivingCurrency: "XYZ" }))
      ).toEqual(Exit.fail(PricingErrors.InvalidCurrency.of("XYZ", "unknown_currency")))
      expect(
        yield* Effect.exit(price(platform, { ...request, sendingCurrency: "EUR", receivingCurrency: "BTC" }))
      ).toEqual(Exit.fail(PricingErrors.QuoteRateUnavailable.of("EUR", "BTC")))
    }).pipe(Effect.provide(pricerLayer))
  )

  it.effect("refuses an amount that receives nothing, and totals outside the sending currency's limits", () =>
    Effect.gen(function* () {
      const platform = platformWith([usdFee(0, 500)])
      const usdToMxn = { sendingCurrency: "USD", receivingCurrency: "MXN" } as const
      expect(
        yield* Effect.exit(price(platform, { ...usdToMxn, lockedSide: "SENDING", lockedAmountMinor: 500n }))
      ).toEqual(Exit.fail(PricingErrors.InvalidAmount.of("USD", "MXN")))
      expect(
        yield* Effect.exit(price(platform, { ...usdToMxn, lockedSide: "SENDING", lockedAmountMinor: 99n }))
      ).toEqual(Exit.fail(PricingErrors.AmountOutOfRange.of("USD", 100)))
      expect(
        yield* Effect.exit(price(platform, { ...usdToMxn, lockedSide: "SENDING", lockedAmountMinor: 1_000_000_01n }))
      ).toEqual(Exit.fail(PricingErrors.TransactionSizeLimitExceeded.of("USD", 1_000_000_00)))
      // Locked RECEIVING: the limits apply to the total with fees. 1.00 MXN costs 6 cents and 5.00 USD in fees.
      expect(
        (yield* price(platform, { ...usdToMxn, lockedSide: "RECEIVING", lockedAmountMinor: 100n })).priced
          .totalSendingMinor
      ).toBe(507n)
      expect(
        yield* Effect.exit(price(platform, { ...usdToMxn, lockedSide: "RECEIVING", lockedAmountMinor: 2_000_000_000n }))
      ).toEqual(Exit.fail(PricingErrors.TransactionSizeLimitExceeded.of("USD", 1_000_000_00)))
    }).pipe(Effect.provide(pricerLayer))
  )
})

describe("RateDetails", () => {
  it("encodes as the reference's field names", () => {
    expect(Object.keys(RateDetails.RateDetails.fields)).toEqual([
      "counterpartyMultiplier",
      "counterpartyFixedFee",
      "gridApiMultiplier",
      "gridApiFixedFee",
      "gridApiVariableFeeRate",
      "gridApiVariableFeeAmount"
    ])
  })
})
