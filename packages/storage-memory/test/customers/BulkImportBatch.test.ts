import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Stream, TestClock } from "effect"
import { BulkImports, CustomerRepo, Customers, Domain, Ids, Platforms } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

// A store whose first platformCustomerId check misses every holder: what a batch sees when a `POST /customers` takes
// one of its ids between the batch's check and its insert.
let checks = 0
const racing = Layer.effect(
  CustomerRepo.CustomerRepo,
  Effect.map(CustomerRepo.CustomerRepo, (repo) => ({
    ...repo,
    takenPlatformCustomerIds: (platformId, platformCustomerIds) => {
      checks += 1
      return checks === 1
        ? Effect.succeed(new Set<string>())
        : repo.takenPlatformCustomerIds(platformId, platformCustomerIds)
    }
  }))
).pipe(Layer.provideMerge(StorageMemory.layer))

const services = Domain.layer.pipe(
  Layer.provideMerge(racing),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const header =
  "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country"
const row = (id: string) =>
  `$${id}@uma.example.com,${id},INDIVIDUAL,Ada Lovelace,1990-01-15,1 Main St,Austin,TX,78701,US`

describe("bulk import batches", () => {
  it.effect("check again when a platformCustomerId is taken between their check and their insert", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
      const platform = yield* Effect.flatMap(Platforms.Platforms, (platforms) =>
        platforms.create({ name: "Test", environment: "SANDBOX" })
      )
      const customers = yield* Customers.Customers
      yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Kim", platformCustomerId: "raced" })
      const imports = yield* BulkImports.BulkImports
      const file = [header, row("first"), row("raced"), row("last")].join("\n")
      const accepted = yield* imports.upload(platform, Stream.make(new TextEncoder().encode(file)))
      checks = 0
      yield* imports.runBatch(platform.id, accepted.jobId)
      expect(checks).toBe(2)
      const view = yield* imports.get(platform, accepted.jobId)
      expect(view.progress).toEqual({ total: 3, processed: 3, successful: 2, failed: 1 })
      expect(view.errors.map((error) => [error.correlationId, error.code, error.details.line])).toEqual([
        ["raced", "CONFLICT", 3]
      ])
      const holders = yield* customers.list(
        platform,
        { platformCustomerId: "raced" },
        { limit: 10, after: Option.none() }
      )
      expect(holders.data.map((customer) => customer.customerType === "INDIVIDUAL" && customer.fullName)).toEqual([
        "Kim"
      ])
      const created = yield* customers.list(platform, {}, { limit: 10, after: Option.none() })
      expect(created.totalCount).toBe(3)
    }).pipe(Effect.provide(services))
  )
})
