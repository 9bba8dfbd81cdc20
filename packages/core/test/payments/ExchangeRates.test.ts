import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer, Option } from "effect"
import {
  ExchangeRates,
  FxRateCache,
  FxRates,
  Platform,
  PlatformConfig,
  Platforms,
  Pricer,
  PricingErrors,
  Rate
} from "@payrail/core"

const provider = Layer.succeed(FxRates.FxRates, {
  rate: (from, to) =>
    Effect.succeed({
      from,
      to,
      mid: Option.getOrThrow(Rate.fromString(from === "USD" ? "0.05" : "20")),
      spreadBps: 0,
      updatedAt: DateTime.unsafeMake(0)
    })
})

const layer = ExchangeRates.layer.pipe(
  Layer.provide(Pricer.layer),
  Layer.provide(FxRateCache.layer),
  Layer.provide(provider)
)

const platformWith = (codes: ReadonlyArray<"USD" | "MXN">, feeConfigs: ReadonlyArray<PlatformConfig.FeeConfig> = []) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "Rates",
    environment: "SANDBOX",
    config: new PlatformConfig.PlatformConfig({
      ...Platforms.defaultConfig,
      supportedCurrencies: codes.map(
        (currencyCode) => new Platform.SupportedCurrency({ currencyCode, minAmount: 1, maxAmount: 1_000_000 })
      ),
      feeConfigs
    }),
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

const list = (platform: Platform.Platform, query: ExchangeRates.ExchangeRateQuery) =>
  Effect.flatMap(ExchangeRates.ExchangeRates, (rates) => rates.list(platform, query))

describe("ExchangeRates", () => {
  it.effect("checks a named currency even when it makes no corridor", () =>
    Effect.gen(function* () {
      const usdOnly = platformWith(["USD"])
      expect(yield* list(usdOnly, { sendingAmountMinor: 10_000n })).toEqual([])
      expect(yield* list(usdOnly, { sourceCurrency: "USD", sendingAmountMinor: 10_000n })).toEqual([])
      expect(yield* Effect.exit(list(usdOnly, { sourceCurrency: "MXN", sendingAmountMinor: 10_000n }))).toEqual(
        Exit.fail(PricingErrors.InvalidCurrency.of("MXN", "currency_not_supported_by_platform"))
      )
    }).pipe(Effect.provide(layer))
  )

  it.effect("lists an amount that buys nothing as receiving 0, its fixed fee at most the amount", () =>
    Effect.gen(function* () {
      const fee = new PlatformConfig.FeeConfig({
        feeType: "CROSS_CURRENCY_TRANSACTION",
        sourceCurrency: "USD",
        variableFeeBps: 0,
        fixedFee: { amount: 30, currency: "USD" }
      })
      const repeated = yield* list(platformWith(["USD", "MXN"], [fee]), {
        sourceCurrency: "USD",
        destinationCurrencies: ["MXN", "MXN"],
        sendingAmountMinor: 20n
      })
      expect(repeated).toHaveLength(1)
      const [rate] = repeated
      expect(rate).toMatchObject({ sendingAmount: 20, receivingAmount: 0, fees: { fixed: 20, total: 20 } })
      const [bought] = yield* list(platformWith(["USD", "MXN"], [fee]), {
        sourceCurrency: "USD",
        sendingAmountMinor: 10_000n
      })
      // 0.05 USD per peso: 9,970 cents less 25 bps buy 198,900 centavos.
      expect(bought).toMatchObject({ receivingAmount: 198_900, fees: { fixed: 30, total: 55 }, exchangeRate: 0.05 })
    }).pipe(Effect.provide(layer))
  )
})
