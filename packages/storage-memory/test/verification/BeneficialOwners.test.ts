import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema, TestClock } from "effect"
import {
  BeneficialOwnerRepo,
  BeneficialOwners,
  BeneficialOwnerRequest,
  Customers,
  Domain,
  Ids,
  Platforms,
  type Platform
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

// The test clock starts in 1970, before the owners' birth dates.
const createPlatform = Effect.zipRight(
  TestClock.setTime(Date.UTC(2026, 4, 1, 12)),
  Effect.flatMap(Platforms.Platforms, (platforms) => platforms.create({ name: "Test", environment: "SANDBOX" }))
)

const business = (platform: Platform.Platform) =>
  Effect.flatMap(Customers.Customers, (customers) =>
    customers.create(platform, { customerType: "BUSINESS", businessInfo: { legalName: "Engines Ltd" } })
  )

const decodeRequest = Schema.decodeUnknownSync(BeneficialOwnerRequest.CreateBeneficialOwnerRequest)

const request = (customerId: string): BeneficialOwnerRequest.CreateBeneficialOwnerRequest =>
  decodeRequest({
    customerId,
    roles: ["UBO"],
    ownershipPercentage: 51,
    personalInfo: {
      firstName: "Jane",
      lastName: "Smith",
      birthDate: "1978-06-15",
      nationality: "US",
      address: { line1: "1 Main St", postalCode: "94105", country: "US" },
      idType: "SSN",
      identifier: "123-45-6789"
    }
  })

describe("BeneficialOwners", () => {
  it.effect(
    "creates an UNVERIFIED owner of a business at the Clock's time, keeping the identifier off the record",
    () =>
      Effect.gen(function* () {
        const platform = yield* createPlatform
        const owners = yield* BeneficialOwners.BeneficialOwners
        const customer = yield* business(platform)
        const owner = yield* owners.create(platform, request(customer.id))
        expect(owner).toMatchObject({ customerId: customer.id, kycStatus: "UNVERIFIED", ownershipPercentage: 51 })
        expect(owner.id).toMatch(/^BeneficialOwner:[0-9a-f-]{36}$/)
        expect(owner.createdAt.epochMillis).toBe(Date.UTC(2026, 4, 1, 12))
        expect(owner.personalInfo).not.toHaveProperty("identifier")
        const stored = yield* (yield* BeneficialOwnerRepo.BeneficialOwnerRepo).findById(platform.id, owner.id)
        expect(Option.map(stored, ({ identifier, version }) => [identifier, version])).toEqual(
          Option.some(["123-45-6789", 1])
        )
        expect(yield* owners.get(platform, owner.id)).toEqual(owner)
      }).pipe(Effect.provide(services))
  )

  it.effect("refuses an individual on customerId, an unknown or another platform's customer as USER_NOT_FOUND", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const other = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const customers = yield* Customers.Customers
      const individual = yield* customers.create(platform, { customerType: "INDIVIDUAL", fullName: "Kim" })
      expect(yield* Effect.flip(owners.create(platform, request(individual.id)))).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "customerId", constraint: { enum: ["BUSINESS"] } }] }
      })
      const theirs = yield* business(other)
      for (const customerId of [theirs.id, "Customer:00000000-0000-4000-8000-000000000999"]) {
        expect(yield* Effect.flip(owners.create(platform, request(customerId)))).toMatchObject({
          code: "USER_NOT_FOUND",
          details: { customerId }
        })
      }
      expect((yield* owners.list(platform, theirs.id, { limit: 10, after: Option.none() })).data).toEqual([])
    }).pipe(Effect.provide(services))
  )

  it.effect("refuses a birth date after today, by the Clock", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const customer = yield* business(platform)
      const base = request(customer.id)
      const future = yield* Effect.flip(
        owners.create(platform, { ...base, personalInfo: { ...base.personalInfo, birthDate: "2026-05-02" } })
      )
      expect(future).toMatchObject({ details: { errors: [{ field: "personalInfo.birthDate" }] } })
      const owner = yield* owners.create(platform, base)
      const later = yield* Effect.flip(owners.update(platform, owner.id, { personalInfo: { birthDate: "2027-01-01" } }))
      expect(later).toMatchObject({ details: { errors: [{ field: "personalInfo.birthDate" }] } })
    }).pipe(Effect.provide(services))
  )

  it.effect("applies given fields over the stored ones, nested personalInfo too, and keeps the KYC status", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const owner = yield* owners.create(platform, request((yield* business(platform)).id))
      yield* repo.resolveKycStatus(platform.id, owner.id, "APPROVED", owner.createdAt)
      yield* TestClock.adjust("1 minute")
      // A last name ending in 002 would reject a new owner; a rename never re-derives the status.
      const updated = yield* owners.update(platform, owner.id, {
        roles: ["DIRECTOR", "UBO"],
        personalInfo: { lastName: "Smith 002", identifier: "987-65-4321" }
      })
      expect(updated).toMatchObject({
        roles: ["DIRECTOR", "UBO"],
        ownershipPercentage: 51,
        kycStatus: "APPROVED",
        personalInfo: { firstName: "Jane", lastName: "Smith 002", idType: "SSN" }
      })
      expect(updated.updatedAt.epochMillis).toBe(Date.UTC(2026, 4, 1, 12, 1))
      expect(updated.personalInfo).not.toHaveProperty("identifier")
      const stored = Option.getOrThrow(yield* repo.findById(platform.id, owner.id))
      expect([stored.identifier, stored.version]).toEqual(["987-65-4321", 3])
    }).pipe(Effect.provide(services))
  )

  it.effect("applies every one of concurrent updates on the latest version, losing none", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const owner = yield* owners.create(platform, request((yield* business(platform)).id))
      yield* Effect.all(
        [
          owners.update(platform, owner.id, { ownershipPercentage: 10 }),
          owners.update(platform, owner.id, { personalInfo: { firstName: "Janet" } }),
          owners.update(platform, owner.id, { personalInfo: { email: "janet@example.com" } }),
          owners.update(platform, owner.id, { roles: ["TRUSTEE"] })
        ],
        { concurrency: "unbounded" }
      )
      expect(yield* owners.get(platform, owner.id)).toMatchObject({
        ownershipPercentage: 10,
        roles: ["TRUSTEE"],
        personalInfo: { firstName: "Janet", email: "janet@example.com", lastName: "Smith" }
      })
    }).pipe(Effect.provide(services))
  )

  it.effect("answers NOT_FOUND for an owner of another platform, on get and update", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const other = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const owner = yield* owners.create(platform, request((yield* business(platform)).id))
      const expected = { code: "NOT_FOUND", details: { beneficialOwnerId: owner.id } }
      expect(yield* Effect.flip(owners.get(other, owner.id))).toMatchObject(expected)
      expect(yield* Effect.flip(owners.update(other, owner.id, { ownershipPercentage: 1 }))).toMatchObject(expected)
    }).pipe(Effect.provide(services))
  )

  it.effect("lists a customer's owners newest first", () =>
    Effect.gen(function* () {
      const platform = yield* createPlatform
      const owners = yield* BeneficialOwners.BeneficialOwners
      const customer = yield* business(platform)
      const first = yield* owners.create(platform, request(customer.id))
      yield* TestClock.adjust("1 second")
      const second = yield* owners.create(platform, request(customer.id))
      const page = yield* owners.list(platform, customer.id, { limit: 1, after: Option.none() })
      expect([page.data, page.hasMore, page.totalCount]).toEqual([[second], true, 2])
      const all = yield* owners.list(platform, customer.id, { limit: 10, after: Option.none() })
      expect(all.data).toEqual([second, first])
    }).pipe(Effect.provide(services))
  )
})
