import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { CountryCode, type CustomerRequest, KycProvider, Platform, Platforms } from "@payrail/core"
import { SandboxKyc } from "@payrail/sandbox"

const platformWith = (
  overrides: Partial<Platform.PlatformConfig>,
  currencies = Platforms.defaultConfig.supportedCurrencies,
  environment: Platform.Environment = "SANDBOX"
) =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "p",
    environment,
    config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, supportedCurrencies: currencies, ...overrides }),
    createdAt: DateTime.unsafeMake(0),
    updatedAt: DateTime.unsafeMake(0)
  })

const fiatOnly = Platforms.defaultConfig.supportedCurrencies.filter((currency) => currency.currencyCode !== "USDC")

const initialFor = (platform: Platform.Platform, request: CustomerRequest.CreateCustomerRequest) =>
  Effect.flatMap(KycProvider.KycProvider, (kyc) => kyc.initialVerification({ platform, request })).pipe(
    Effect.provide(SandboxKyc.layer)
  )

const initial = (platform: Platform.Platform, fullName: string) =>
  initialFor(platform, { customerType: "INDIVIDUAL", fullName })

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
      expect(yield* initial(platformWith({}, fiatOnly), "Jo 002")).toEqual({
        customerType: "INDIVIDUAL",
        kycStatus: "UNVERIFIED"
      })
      expect(yield* initial(platformWith({ isRegulatedFinancialInstitution: true }, fiatOnly), "Jo 002")).toMatchObject(
        { kycStatus: "REJECTED" }
      )
      expect(yield* initial(platformWith({ skipPaperwork: true }, fiatOnly), "Jo 001")).toMatchObject({
        kycStatus: "PENDING"
      })
      expect(yield* initial(platformWith({}), "Jo")).toMatchObject({ kycStatus: "APPROVED" })
    })
  )

  it.effect("applies no magic suffix and approves no one on a production platform", () =>
    Effect.gen(function* () {
      for (const config of [{}, { isRegulatedFinancialInstitution: true }, { skipPaperwork: true }]) {
        const production = platformWith(config, Platforms.defaultConfig.supportedCurrencies, "PRODUCTION")
        for (const fullName of ["Jo 001", "Jo 002", "Jo 003", "Jo"]) {
          expect(yield* initial(production, fullName)).toEqual({ customerType: "INDIVIDUAL", kycStatus: "UNVERIFIED" })
        }
      }
    })
  )

  it.effect(
    "leaves a sandbox customer who is not identified at all UNVERIFIED, even where outcomes resolve at creation",
    () =>
      Effect.gen(function* () {
        const resolving = platformWith({ isRegulatedFinancialInstitution: true })
        expect(yield* initialFor(resolving, { customerType: "INDIVIDUAL" })).toEqual({
          customerType: "INDIVIDUAL",
          kycStatus: "UNVERIFIED"
        })
        expect(
          yield* initialFor(resolving, {
            customerType: "INDIVIDUAL",
            platformCustomerId: "c-1",
            region: CountryCode.CountryCode.make("US"),
            idType: "SSN"
          })
        ).toMatchObject({ kycStatus: "UNVERIFIED" })
        // Any identifying field is enough for the sandbox; the suffix rule reads fullName when there is one.
        expect(yield* initialFor(resolving, { customerType: "INDIVIDUAL", email: "jo@example.com" })).toMatchObject({
          kycStatus: "APPROVED"
        })
        expect(yield* initialFor(resolving, { customerType: "INDIVIDUAL", birthDate: "1990-01-01" })).toMatchObject({
          kycStatus: "APPROVED"
        })
      })
  )

  it.effect("creates businesses UNVERIFIED whatever the registration number", () =>
    Effect.gen(function* () {
      const kyc = yield* KycProvider.KycProvider
      const result = yield* kyc.initialVerification({
        platform: platformWith({ isRegulatedFinancialInstitution: true }),
        request: { customerType: "BUSINESS", businessInfo: { legalName: "Co", registrationNumber: "R-004" } }
      })
      expect(result).toEqual({ customerType: "BUSINESS", kybStatus: "UNVERIFIED" })
    }).pipe(Effect.provide(SandboxKyc.layer))
  )
})
