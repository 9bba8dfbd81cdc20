import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, Schema } from "effect"
import { type Errors, Platform, PlatformConfigUpdate, Platforms } from "@payrail/core"

const at = DateTime.unsafeMake("2026-01-01T00:00:00.000Z")
const platformIn = (environment: Platform.Environment) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "p",
    environment,
    config: Platforms.defaultConfig,
    createdAt: at,
    updatedAt: at
  })
const decode = Schema.decodeUnknownSync(PlatformConfigUpdate.UpdatePlatformConfigRequest)
const fieldsOf = (result: Either.Either<unknown, Errors.InvalidInput>) =>
  Either.isLeft(result) ? (result.left.details?.errors ?? []).map((error) => error.field) : []

describe("PlatformConfigUpdate", () => {
  it("keeps what a request omits and merges fees by (feeType, sourceCurrency)", () => {
    const fee = (variableFeeBps: number, amount: number) => ({
      feeType: "CROSS_CURRENCY_TRANSACTION",
      sourceCurrency: "USD",
      variableFeeBps,
      fixedFee: { amount, currency: "USD" }
    })
    const once = Either.getOrThrow(
      PlatformConfigUpdate.apply(platformIn("SANDBOX"), decode({ feeConfigs: [fee(10, 0)], skipPaperwork: true }))
    )
    expect(once.supportedCurrencies).toEqual(Platforms.defaultConfig.supportedCurrencies)
    expect(once.feeConfigs.map((each) => each.variableFeeBps)).toEqual([10])
    const platform = new Platform.Platform({ ...platformIn("SANDBOX"), config: once })
    const replaced = Either.getOrThrow(PlatformConfigUpdate.apply(platform, decode({ feeConfigs: [fee(20, 5)] })))
    expect(replaced.feeConfigs.map((each) => each.variableFeeBps)).toEqual([20])
    expect(replaced.skipPaperwork).toBe(true)
    const removed = Either.getOrThrow(PlatformConfigUpdate.apply(platform, decode({ feeConfigs: [fee(0, 0)] })))
    expect(removed.feeConfigs).toEqual([])
  })

  it("refuses http webhooks and operator flags on production only, naming each field", () => {
    const request = decode({ webhookEndpoint: "http://example.com/h", isRegulatedFinancialInstitution: true })
    expect(fieldsOf(PlatformConfigUpdate.apply(platformIn("PRODUCTION"), request))).toEqual([
      "webhookEndpoint",
      "isRegulatedFinancialInstitution"
    ])
    expect(Either.isRight(PlatformConfigUpdate.apply(platformIn("SANDBOX"), request))).toBe(true)
    // Sending the current value back is not a change.
    const same = decode({ isRegulatedFinancialInstitution: false, skipPaperwork: false })
    expect(Either.isRight(PlatformConfigUpdate.apply(platformIn("PRODUCTION"), same))).toBe(true)
  })

  it("moves updatedAt strictly forward even when the clock has not", () => {
    expect(PlatformConfigUpdate.nextUpdatedAt(at, at)).toEqual(DateTime.add(at, { millis: 1 }))
    const later = DateTime.add(at, { seconds: 5 })
    expect(PlatformConfigUpdate.nextUpdatedAt(at, later)).toEqual(later)
  })
})
