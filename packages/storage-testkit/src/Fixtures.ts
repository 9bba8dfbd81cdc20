import { DateTime, Effect, Option } from "effect"
import { ApiToken, Customer, type Errors, Platform, Platforms, PlatformRepo } from "@payrail/core"

const uuid = () => globalThis.crypto.randomUUID()

/** A fixed instant plus `offsetMillis`, so tests control ordering by creation time. */
export const at = (offsetMillis: number): DateTime.Utc => DateTime.unsafeMake(Date.UTC(2026, 0, 1) + offsetMillis)

/** A platform record with a fresh id. */
export const platform = (name = "Conformance platform"): Platform.Platform =>
  new Platform.Platform({
    id: Platform.PlatformId.make(`Platform:${uuid()}`),
    name,
    environment: "SANDBOX",
    config: Platforms.defaultConfig,
    createdAt: at(0),
    updatedAt: at(0)
  })

/** Inserts a fresh platform and returns it: tests scope their data to it, so suites can share one store. */
export const insertPlatform: Effect.Effect<Platform.Platform, Errors.StoreFailure, PlatformRepo.PlatformRepo> =
  Effect.gen(function* () {
    const repo = yield* PlatformRepo.PlatformRepo
    const created = platform()
    yield* repo.insert(created)
    return created
  })

/** An API token record of the platform with a fresh client id. */
export const apiToken = (platformId: Platform.PlatformId): ApiToken.ApiToken =>
  new ApiToken.ApiToken({
    id: ApiToken.ApiTokenId.make(`ApiToken:${uuid()}`),
    platformId,
    name: "conformance",
    clientId: `pk_${uuid()}`,
    secretHash: "a".repeat(64),
    permissions: ["VIEW", "MANAGE"],
    createdAt: at(0)
  })

/** An individual customer created at `at(offsetMillis)`. */
export const individual = (
  options: { readonly platformCustomerId?: string; readonly offsetMillis?: number; readonly region?: "US" | "MX" } = {}
): Customer.IndividualCustomer => {
  const id = uuid()
  const createdAt = at(options.offsetMillis ?? 0)
  return new Customer.IndividualCustomer({
    id: Customer.CustomerId.make(`Customer:${id}`),
    customerType: "INDIVIDUAL",
    platformCustomerId: options.platformCustomerId ?? `pc-${id}`,
    region: (options.region ?? "US") as Customer.IndividualCustomer["region"],
    email: `${id}@example.com`,
    createdAt,
    updatedAt: createdAt,
    isDeleted: false,
    kycStatus: "UNVERIFIED",
    fullName: "Ada Lovelace",
    birthDate: "1990-12-10"
  })
}

/** A business customer created at `at(offsetMillis)`. */
export const business = (offsetMillis = 0): Customer.BusinessCustomer => {
  const id = uuid()
  return new Customer.BusinessCustomer({
    id: Customer.CustomerId.make(`Customer:${id}`),
    customerType: "BUSINESS",
    platformCustomerId: `pc-${id}`,
    createdAt: at(offsetMillis),
    updatedAt: at(offsetMillis),
    isDeleted: false,
    kybStatus: "UNVERIFIED",
    businessInfo: { legalName: "Analytical Engines Ltd", registrationNumber: "REG-000" }
  })
}

/** No tax identifier. */
export const noIdentifier = Option.none<string>()
