import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import { CustomerRepo, Customers, Domain, Errors, Ids, Outbox, Platforms } from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const createPlatform = Effect.flatMap(Platforms.Platforms, (platforms) =>
  platforms.create({ name: "Test", environment: "SANDBOX" })
)

describe("Customers", () => {
  it.effect("records CUSTOMER.CREATED and the resolved KYC status with the customer, at the Clock's time", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
      const platform = yield* createPlatform
      const customers = yield* Customers.Customers
      const customer = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Kim 001" })
      expect(customer).toMatchObject({ kycStatus: "PENDING", createdAt: expect.anything() })
      expect(customer.createdAt.epochMillis).toBe(Date.UTC(2026, 4, 1, 12))
      const events = yield* (yield* Outbox.Outbox).pending(10)
      expect(events.map((event) => event.type)).toEqual(["CUSTOMER.CREATED", "CUSTOMER.KYC_PENDING"])
      expect(events[0]?.data).toMatchObject({ id: customer.id, createdAt: "2026-05-01T12:00:00.000Z" })
      expect(events[0]?.id).toMatch(/^Webhook:/)
    }).pipe(Effect.provide(services))
  )

  it.effect("refuses a birth or incorporation date after today, by the Clock, and accepts one long past", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
      const platform = yield* createPlatform
      const customers = yield* Customers.Customers
      const future = yield* Effect.flip(
        customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Kim", birthDate: "2026-05-02" })
      )
      expect(future).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "birthDate" }] } })
      const business = yield* customers.create(platform, {
        customerType: "BUSINESS",
        businessInfo: { legalName: "Hudson's Bay", incorporatedOn: "1850-05-02" }
      })
      const later = yield* Effect.flip(
        customers.update(platform, business.id, {
          customerType: "BUSINESS",
          businessInfo: { incorporatedOn: "2027-01-01" }
        })
      )
      expect(later).toMatchObject({ details: { errors: [{ field: "businessInfo.incorporatedOn" }] } })
      const today = yield* customers.create(platform, {
        customerType: "INDIVIDUAL",
        fullName: "Kim",
        birthDate: "2026-05-01"
      })
      expect(today.customerType === "INDIVIDUAL" && today.birthDate).toBe("2026-05-01")
    }).pipe(Effect.provide(services))
  )

  it.effect("keeps the identifier out of the record and its events but stores it", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const customer = yield* (yield* Customers.Customers).create(platform, {
        customerType: "INDIVIDUAL",
        idType: "SSN",
        identifier: "123-45-6789"
      })
      expect(JSON.stringify(customer)).not.toContain("123-45-6789")
      const events = yield* (yield* Outbox.Outbox).pending(10)
      expect(JSON.stringify(events)).not.toContain("123-45-6789")
      const stored = yield* (yield* CustomerRepo.CustomerRepo).findById(platform.id, customer.id)
      expect(Option.flatMap(stored, (found) => found.identifier)).toEqual(Option.some("123-45-6789"))
    }).pipe(Effect.provide(services))
  )

  it.effect("leaves no customer behind when recording its event fails", () => {
    const failingOutbox = Layer.succeed(Outbox.Outbox, {
      append: () => Effect.fail(Errors.StoreFailure.of("append event")),
      appendAll: () => Effect.fail(Errors.StoreFailure.of("append events")),
      pending: () => Effect.succeed([]),
      feed: () => Effect.fail(Errors.StoreFailure.of("read events")),
      findById: () => Effect.succeedNone
    })
    const broken = Domain.layer.pipe(
      Layer.provide(failingOutbox),
      Layer.provideMerge(StorageMemory.layer),
      Layer.provide(Sandbox.layer),
      Layer.provide(WalletAuth.layerEphemeral),
      Layer.provide(Ids.layerDeterministic)
    )
    return Effect.gen(function* () {
      const platform = yield* createPlatform
      const result = yield* Effect.either(
        (yield* Customers.Customers).create(platform, { customerType: "INDIVIDUAL", platformCustomerId: "kept-out" })
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("StoreFailure")
      const page = yield* (yield* CustomerRepo.CustomerRepo).list(platform.id, {}, { limit: 10, after: Option.none() })
      expect(page.totalCount).toBe(0)
    }).pipe(Effect.provide(broken))
  })

  it.effect("updates fields without re-deriving the KYC status, and records CUSTOMER.UPDATED", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const customers = yield* Customers.Customers
      const created = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Lee 002" })
      yield* TestClock.adjust("1 minute")
      const updated = yield* customers.update(platform, created.id, { customerType: "INDIVIDUAL", fullName: "Lee 999" })
      expect(updated).toMatchObject({ fullName: "Lee 999", kycStatus: "REJECTED" })
      expect(updated.updatedAt.epochMillis - created.updatedAt.epochMillis).toBe(60_000)
      const types = (yield* (yield* Outbox.Outbox).pending(10)).map((event) => event.type)
      expect(types).toContain("CUSTOMER.UPDATED")
    }).pipe(Effect.provide(services))
  )

  it.effect("answers another platform's customer as not found", () =>
    Effect.gen(function* () {
      const mine = yield* createPlatform
      const theirs = yield* createPlatform
      const customers = yield* Customers.Customers
      const created = yield* customers.create(mine, { customerType: "BUSINESS", businessInfo: { legalName: "Co" } })
      const result = yield* Effect.either(customers.get(theirs, created.id))
      expect(Either.isLeft(result) && result.left.code).toBe("USER_NOT_FOUND")
    }).pipe(Effect.provide(services))
  )
})
