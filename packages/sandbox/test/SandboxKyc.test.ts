import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { KycProvider, Platform, Platforms } from "@payrail/core"
import { SandboxKyc } from "@payrail/sandbox"

const platformWith = (overrides: Partial<Platform.PlatformConfig>, currencies = Platforms.defaultConfig.supportedCurrencies) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "p",
    environment: "SANDBOX",
    config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, supportedCurrencies: currencies, ...overrides }),
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

const fiatOnly = Platforms.defaultConfig.supportedCurrencies.filter((currency) => currency.currencyCode !== "USDC")

const initial = (platform: Platform.Platform, fullName: string) =>
  Effect.flatMap(KycProvider.KycProvider, (kyc) =>
    kyc.initialVerification({ platform, request: { customerType: "INDIVIDUAL", fullName } })
  ).pipe(Effect.provide(SandboxKyc.layer))

describe("SandboxKyc", () => {
  it("maps the fullName suffix to the spec's KYC outcomes", () => {
    expect(["Jo 001", "Jo 002", "Jo 003", "Jo 004", "Jo", ""].map(SandboxKyc.kycStatusForName)).toEqual([
      "PENDING",
      "REJECTED",
      "UNVERIFIED",
      "APPROVED",
      "APPROVED",
      "APPROVED"
    ])
  })

  it.effect("resolves at creation on regulated, skip-paperwork and stablecoin platforms only", () =>
    Effect.gen(function* () {
      expect(yield* initial(platformWith({}, fiatOnly), "Jo 002")).toEqual({ customerType: "INDIVIDUAL", kycStatus: "UNVERIFIED" })
      expect(yield* initial(platformWith({ isRegulatedFinancialInstitution: true }, fiatOnly), "Jo 002")).toMatchObject({ kycStatus: "REJECTED" })
      expect(yield* initial(platformWith({ skipPaperwork: true }, fiatOnly), "Jo 001")).toMatchObject({ kycStatus: "PENDING" })
      expect(yield* initial(platformWith({}), "Jo")).toMatchObject({ kycStatus: "APPROVED" })
    }))

  it.effect("creates businesses UNVERIFIED whatever the registration number", () =>
    Effect.gen(function* () {
      const kyc = yield* KycProvider.KycProvider
      const result = yield* kyc.initialVerification({
        platform: platformWith({ isRegulatedFinancialInstitution: true }),
        request: { customerType: "BUSINESS", businessInfo: { legalName: "Co", registrationNumber: "R-004" } }
      })
      expect(result).toEqual({ customerType: "BUSINESS", kybStatus: "UNVERIFIED" })
    }).pipe(Effect.provide(SandboxKyc.layer)))
})
