import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Customer, CustomerErrors, CustomerRepo, Page, UmaAddress, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

/**
 * Customers: scoping per platform, the unique platformCustomerId and UMA address under races, guarded updates,
 * keyset pages.
 */
export const register = (it: Methods) => {
  it.effect("finds a customer only within its own platform, with its identifier and version 1", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customer = Fixtures.individual()
      yield* repo.insert(mine.id, customer, Option.some("123-45-6789"))
      expect(yield* repo.findById(mine.id, customer.id)).toEqual(
        Option.some({ customer, identifier: Option.some("123-45-6789"), version: 1 })
      )
      expect(yield* repo.findById(other.id, customer.id)).toEqual(Option.none())
    })
  )

  it.effect("finds a live customer by its UMA address within its own platform only, never a deleted one", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const plain = Fixtures.individual()
      const address = UmaAddress.forCustomer(plain.id.slice("Customer:".length), "uma.example")
      const customer = new Customer.IndividualCustomer({ ...plain, umaAddress: address })
      const deleted = new Customer.IndividualCustomer({
        ...Fixtures.individual(),
        umaAddress: UmaAddress.UmaAddress.make("$gone@uma.example"),
        isDeleted: true
      })
      yield* repo.insert(mine.id, customer, Fixtures.noIdentifier)
      yield* repo.insert(mine.id, deleted, Fixtures.noIdentifier)
      yield* repo.insert(mine.id, Fixtures.individual(), Fixtures.noIdentifier)
      expect(yield* repo.findByUmaAddress(mine.id, address)).toEqual(
        Option.some({ customer, identifier: Fixtures.noIdentifier, version: 1 })
      )
      expect(yield* repo.findByUmaAddress(mine.id, "$gone@uma.example")).toEqual(Option.none())
      for (const [platformId, wanted] of [
        [other.id, address],
        [mine.id, address.toUpperCase()],
        [mine.id, "$nobody@uma.example"],
        [mine.id, "$nul\u0000@uma.example"]
      ] as const) {
        expect(yield* repo.findByUmaAddress(platformId, wanted)).toEqual(Option.none())
      }
    })
  )

  it.effect("round-trips a business customer", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const customer = Fixtures.business()
      yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
      const found = yield* repo.findById(platform.id, customer.id)
      expect(Option.map(found, (stored) => stored.customer)).toEqual(Option.some(customer))
    })
  )

  it.effect("rejects a second customer with the same platformCustomerId on one platform only", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      yield* repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "shared-id" }), Fixtures.noIdentifier)
      const duplicate = yield* Effect.either(
        repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "shared-id" }), Fixtures.noIdentifier)
      )
      expect(duplicate).toEqual(Either.left(CustomerErrors.PlatformCustomerIdTaken.of("shared-id")))
      yield* repo.insert(other.id, Fixtures.individual({ platformCustomerId: "shared-id" }), Fixtures.noIdentifier)
      const page = yield* repo.list(platform.id, { platformCustomerId: "shared-id" }, firstPage(10))
      expect(page.totalCount).toBe(1)
    })
  )

  it.effect("lets exactly one of 20 concurrent inserts with one platformCustomerId win", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          Effect.either(
            repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "race" }), Fixtures.noIdentifier)
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual(
        Array.from({ length: 19 }, () => "PlatformCustomerIdTaken")
      )
      expect((yield* repo.list(platform.id, {}, firstPage(100))).totalCount).toBe(1)
    })
  )

  it.effect("holds an UMA address for one live customer per platform, freed by its delete, under races", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const at = (address: string) =>
        new Customer.IndividualCustomer({ ...Fixtures.individual(), umaAddress: UmaAddress.UmaAddress.make(address) })
      const holder = at("$held@uma.example")
      yield* repo.insert(platform.id, holder, Fixtures.noIdentifier)
      expect(yield* Effect.either(repo.insert(platform.id, at("$held@uma.example"), Fixtures.noIdentifier))).toEqual(
        Either.left(CustomerErrors.UmaAddressTaken.of("$held@uma.example"))
      )
      yield* repo.insert(other.id, at("$held@uma.example"), Fixtures.noIdentifier)
      // Stored deleted, a customer holds no address; deleting the holder frees it.
      yield* repo.insert(
        platform.id,
        new Customer.IndividualCustomer({ ...at("$held@uma.example"), isDeleted: true }),
        Fixtures.noIdentifier
      )
      const deleted = {
        customer: new Customer.IndividualCustomer({ ...holder, isDeleted: true }),
        identifier: Fixtures.noIdentifier,
        version: 2
      }
      expect(yield* repo.update(platform.id, deleted, 1)).toBe(true)
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          Effect.either(repo.insert(platform.id, at("$held@uma.example"), Fixtures.noIdentifier))
        ),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual(
        Array.from({ length: 19 }, () => "UmaAddressTaken")
      )
      const live = yield* repo.list(platform.id, { umaAddress: "$held@uma.example" }, firstPage(10))
      expect(live.totalCount).toBe(1)
      const all = yield* repo.list(
        platform.id,
        { umaAddress: "$held@uma.example", isIncludingDeleted: true },
        firstPage(10)
      )
      expect(all.totalCount).toBe(3)
      expect((yield* repo.list(platform.id, { umaAddress: "$HELD@uma.example" }, firstPage(10))).totalCount).toBe(0)
    })
  )

  it.effect("inserts none of many customers when an UMA address is taken or repeated, naming it", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const at = (address: string) => ({
        customer: new Customer.IndividualCustomer({
          ...Fixtures.individual(),
          umaAddress: UmaAddress.UmaAddress.make(address)
        }),
        identifier: Fixtures.noIdentifier
      })
      yield* repo.insert(platform.id, at("$taken@uma.example").customer, Fixtures.noIdentifier)
      const withTaken = [at("$one@uma.example"), at("$taken@uma.example"), at("$two@uma.example")]
      expect(yield* Effect.either(repo.insertMany(platform.id, withTaken))).toEqual(
        Either.left(CustomerErrors.UmaAddressTaken.of("$taken@uma.example"))
      )
      const twice = [at("$three@uma.example"), at("$twice@uma.example"), at("$twice@uma.example")]
      expect(yield* Effect.either(repo.insertMany(platform.id, twice))).toEqual(
        Either.left(CustomerErrors.UmaAddressTaken.of("$twice@uma.example"))
      )
      for (const { customer } of [...withTaken, ...twice]) {
        expect(yield* repo.findById(platform.id, customer.id)).toEqual(Option.none())
      }
      expect((yield* repo.list(platform.id, {}, firstPage(10))).totalCount).toBe(1)
    })
  )

  it.effect("applies an update only at the version it was read at", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const customer = Fixtures.individual()
      yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
      const renamed = { ...customer, fullName: "Grace Hopper" }
      const next = { customer: renamed, identifier: Option.some("987-65-4321"), version: 2 }
      expect(yield* repo.update(platform.id, next, 1)).toBe(true)
      expect(yield* repo.update(platform.id, { ...next, version: 3 }, 1)).toBe(false)
      const other = yield* Fixtures.insertPlatform
      expect(yield* repo.update(other.id, { ...next, version: 3 }, 2)).toBe(false)
      expect(yield* repo.findById(platform.id, customer.id)).toEqual(Option.some(next))
    })
  )

  it.effect("lets exactly one of 10 concurrent updates from one version apply", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const customer = Fixtures.individual()
      yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
      const applied = yield* Effect.all(
        Array.from({ length: 10 }, (_, index) =>
          repo.update(
            platform.id,
            { customer: { ...customer, fullName: `Writer ${index}` }, identifier: Option.none(), version: 2 },
            1
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
    })
  )

  it.effect("pages newest first by (createdAt, id) without gaps or repeats, with the total count", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      // Pairs share a creation instant, so the id decides their order.
      const customers = Array.from({ length: 7 }, (_, index) =>
        Fixtures.individual({ offsetMillis: Math.floor(index / 2) * 1000 })
      )
      for (const customer of customers) yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
      const expected = [...customers].sort((a, b) => Page.compareNewestFirst(a, b)).map((customer) => customer.id)

      const seen: Array<string> = []
      let request = firstPage(3)
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const page = yield* repo.list(platform.id, {}, request)
        expect(page.totalCount).toBe(7)
        seen.push(...page.data.map((customer) => customer.id))
        expect(page.hasMore).toBe(pageNumber < 2)
        expect(page.nextCursor !== undefined).toBe(page.hasMore)
        if (page.nextCursor !== undefined) {
          request = { limit: 3, after: Option.some(yield* Page.decodeCursor(page.nextCursor)) }
        }
      }
      expect(seen).toEqual(expected)
    })
  )

  it.effect("counts only committed customers per platform and type, however the inserts end", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const individuals = [
        Fixtures.individual({ platformCustomerId: "counted-once" }),
        ...Array.from({ length: 19 }, () => Fixtures.individual())
      ]
      const businesses = Array.from({ length: 3 }, () => Fixtures.business())
      yield* Effect.forEach(
        [...individuals, ...businesses],
        (customer) => repo.insert(platform.id, customer, Fixtures.noIdentifier),
        { concurrency: 8, discard: true }
      )
      yield* repo.insert(other.id, Fixtures.business(), Fixtures.noIdentifier)
      // A refused insert and a unit of work that fails after its insert count nothing.
      const taken = Fixtures.individual({ platformCustomerId: "counted-once" })
      expect((yield* Effect.flip(repo.insert(platform.id, taken, Fixtures.noIdentifier)))._tag).toBe(
        "PlatformCustomerIdTaken"
      )
      const undone = store.transaction(
        Effect.zipRight(repo.insert(platform.id, Fixtures.business(), Fixtures.noIdentifier), Effect.fail("boom"))
      )
      expect(yield* Effect.flip(undone)).toBe("boom")
      const totalOf = (filter: CustomerRepo.CustomerFilter) =>
        Effect.map(repo.list(platform.id, filter, firstPage(1)), (page) => page.totalCount)
      expect(yield* totalOf({})).toBe(23)
      expect(yield* totalOf({ customerType: "INDIVIDUAL" })).toBe(20)
      expect(yield* totalOf({ customerType: "BUSINESS" })).toBe(3)
      expect(yield* totalOf({ customerType: "BUSINESS", email: "nobody@example.com" })).toBe(0)
      expect((yield* repo.list(other.id, {}, firstPage(1))).totalCount).toBe(1)
    })
  )

  it.effect("filters by type, region, platformCustomerId, email and creation time", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const early = Fixtures.individual({ offsetMillis: 0, region: "US" })
      const late = Fixtures.individual({ offsetMillis: 60_000, region: "MX" })
      const company = Fixtures.business(30_000)
      for (const customer of [early, late, company]) yield* repo.insert(platform.id, customer, Fixtures.noIdentifier)
      const ids = (filter: CustomerRepo.CustomerFilter) =>
        Effect.map(repo.list(platform.id, filter, firstPage(100)), (page) => page.data.map((customer) => customer.id))

      expect(yield* ids({ customerType: "BUSINESS" })).toEqual([company.id])
      expect(yield* ids({ customerType: "INDIVIDUAL" })).toEqual([late.id, early.id])
      expect(yield* ids({ region: late.region! })).toEqual([late.id])
      expect(yield* ids({ platformCustomerId: early.platformCustomerId })).toEqual([early.id])
      expect(yield* ids({ email: early.email! })).toEqual([early.id])
      expect(yield* ids({ createdAfter: Fixtures.at(30_000) })).toEqual([late.id, company.id])
      expect(yield* ids({ createdBefore: Fixtures.at(30_000) })).toEqual([company.id, early.id])
      expect(yield* ids({ updatedAfter: Fixtures.at(30_001), updatedBefore: Fixtures.at(60_000) })).toEqual([late.id])
    })
  )

  it.effect(
    "frees the platformCustomerId of a deleted customer and leaves it out of lists and totals unless asked",
    () =>
      Effect.gen(function* () {
        const repo = yield* CustomerRepo.CustomerRepo
        const platform = yield* Fixtures.insertPlatform
        const held = Fixtures.individual({ platformCustomerId: "reusable" })
        yield* repo.insert(platform.id, held, Fixtures.noIdentifier)
        yield* repo.insert(platform.id, Fixtures.business(), Fixtures.noIdentifier)
        const deleted = new Customer.IndividualCustomer({ ...held, isDeleted: true, updatedAt: Fixtures.at(1) })
        expect(
          yield* repo.update(platform.id, { customer: deleted, identifier: Fixtures.noIdentifier, version: 2 }, 1)
        ).toBe(true)
        const successor = Fixtures.individual({ platformCustomerId: "reusable" })
        yield* repo.insert(platform.id, successor, Fixtures.noIdentifier)
        const again = yield* Effect.either(
          repo.insert(platform.id, Fixtures.individual({ platformCustomerId: "reusable" }), Fixtures.noIdentifier)
        )
        expect(again).toEqual(Either.left(CustomerErrors.PlatformCustomerIdTaken.of("reusable")))

        const live = yield* repo.list(platform.id, {}, firstPage(10))
        expect(live.data.map((customer) => customer.id).sort()).not.toContain(held.id)
        expect(live.totalCount).toBe(2)
        const individuals = yield* repo.list(platform.id, { customerType: "INDIVIDUAL" }, firstPage(10))
        expect(individuals.totalCount).toBe(1)
        const byId = yield* repo.list(platform.id, { platformCustomerId: "reusable" }, firstPage(10))
        expect(byId.data.map((customer) => customer.id)).toEqual([successor.id])
        const all = yield* repo.list(platform.id, { isIncludingDeleted: true }, firstPage(10))
        expect(all.data.map((customer) => customer.id)).toContain(held.id)
        expect(all.totalCount).toBe(3)
        // Updating the deleted customer again (a no-op rewrite) does not count it out twice.
        expect(
          yield* repo.update(platform.id, { customer: deleted, identifier: Fixtures.noIdentifier, version: 3 }, 2)
        ).toBe(true)
        expect((yield* repo.list(platform.id, {}, firstPage(10))).totalCount).toBe(2)
      })
  )

  it.effect("inserts many customers at once, identifiers and version 1, counted per platform and type", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const individuals = Array.from({ length: 30 }, () => Fixtures.individual())
      const businesses = Array.from({ length: 5 }, () => Fixtures.business())
      const deleted = new Customer.IndividualCustomer({ ...Fixtures.individual(), isDeleted: true })
      const given = [...individuals, ...businesses, deleted].map((customer, index) => ({
        customer,
        identifier: index === 0 ? Option.some("123-45-6789") : Fixtures.noIdentifier
      }))
      yield* repo.insertMany(platform.id, given)
      yield* repo.insertMany(platform.id, [])
      for (const { customer, identifier } of given) {
        expect(yield* repo.findById(platform.id, customer.id)).toEqual(
          Option.some({ customer, identifier, version: 1 })
        )
      }
      const totalOf = (filter: CustomerRepo.CustomerFilter) =>
        Effect.map(repo.list(platform.id, filter, firstPage(1)), (page) => page.totalCount)
      expect(yield* totalOf({})).toBe(35)
      expect(yield* totalOf({ customerType: "INDIVIDUAL" })).toBe(30)
      expect(yield* totalOf({ customerType: "BUSINESS" })).toBe(5)
      expect(yield* totalOf({ isIncludingDeleted: true })).toBe(36)
      yield* repo.insert(platform.id, Fixtures.business(), Fixtures.noIdentifier)
      expect(yield* totalOf({ customerType: "BUSINESS" })).toBe(6)
    })
  )

  it.effect("inserts none of many customers when one platformCustomerId is taken or repeated, naming it", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      yield* repo.insert(
        platform.id,
        Fixtures.individual({ platformCustomerId: "held, by one" }),
        Fixtures.noIdentifier
      )
      const fresh = Array.from({ length: 4 }, () => Fixtures.individual())
      const clash = Fixtures.individual({ platformCustomerId: "held, by one" })
      const withTaken = [...fresh.slice(0, 2), clash, ...fresh.slice(2)].map((customer) => ({
        customer,
        identifier: Fixtures.noIdentifier
      }))
      expect(yield* Effect.either(repo.insertMany(platform.id, withTaken))).toEqual(
        Either.left(CustomerErrors.PlatformCustomerIdTaken.of("held, by one"))
      )
      const twice = [
        Fixtures.individual({ platformCustomerId: "twice" }),
        Fixtures.business(),
        Fixtures.individual({ platformCustomerId: "twice" })
      ].map((customer) => ({ customer, identifier: Fixtures.noIdentifier }))
      expect(yield* Effect.either(repo.insertMany(platform.id, twice))).toEqual(
        Either.left(CustomerErrors.PlatformCustomerIdTaken.of("twice"))
      )
      for (const { customer } of [...withTaken, ...twice]) {
        expect(yield* repo.findById(platform.id, customer.id)).toEqual(Option.none())
      }
      expect((yield* repo.list(platform.id, {}, firstPage(10))).totalCount).toBe(1)
      // The same customers on another platform, and a unit of work that recovers from the refusal, go on.
      const other = yield* Fixtures.insertPlatform
      const elsewhere = [Fixtures.individual({ platformCustomerId: "held, by one" }), Fixtures.business()]
      yield* repo.insertMany(
        other.id,
        elsewhere.map((customer) => ({ customer, identifier: Fixtures.noIdentifier }))
      )
      expect((yield* repo.list(other.id, {}, firstPage(10))).totalCount).toBe(2)
      const store = yield* UnitOfWork.UnitOfWork
      yield* store.transaction(
        Effect.gen(function* () {
          const refused = yield* Effect.either(store.transaction(repo.insertMany(platform.id, withTaken)))
          expect(Either.isLeft(refused)).toBe(true)
          yield* repo.insertMany(
            platform.id,
            fresh.map((customer) => ({ customer, identifier: Fixtures.noIdentifier }))
          )
        })
      )
      expect((yield* repo.list(platform.id, {}, firstPage(10))).totalCount).toBe(5)
    })
  )

  it.effect("tells which platformCustomerIds and UMA addresses live customers of the platform hold", () =>
    Effect.gen(function* () {
      const repo = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const withAddress = (customer: Customer.IndividualCustomer, address: string) =>
        new Customer.IndividualCustomer({ ...customer, umaAddress: UmaAddress.UmaAddress.make(address) })
      const live = withAddress(Fixtures.individual({ platformCustomerId: "live" }), "$live@uma.example")
      const gone = new Customer.IndividualCustomer({
        ...withAddress(Fixtures.individual({ platformCustomerId: "gone" }), "$gone@uma.example"),
        isDeleted: true
      })
      const elsewhere = withAddress(Fixtures.individual({ platformCustomerId: "elsewhere" }), "$else@uma.example")
      yield* repo.insertMany(platform.id, [
        { customer: live, identifier: Fixtures.noIdentifier },
        { customer: gone, identifier: Fixtures.noIdentifier }
      ])
      yield* repo.insert(other.id, elsewhere, Fixtures.noIdentifier)
      const ids = ["live", "gone", "elsewhere", "nobody", "live", "nul\u0000"]
      expect(yield* repo.takenPlatformCustomerIds(platform.id, ids)).toEqual(new Set(["live"]))
      expect(yield* repo.takenPlatformCustomerIds(other.id, ids)).toEqual(new Set(["elsewhere"]))
      expect(yield* repo.takenPlatformCustomerIds(platform.id, [])).toEqual(new Set())
      const addresses = [
        "$live@uma.example",
        "$LIVE@uma.example",
        "$gone@uma.example",
        "$else@uma.example",
        "$nul\u0000@uma.example"
      ]
      expect(yield* repo.takenUmaAddresses(platform.id, addresses)).toEqual(new Set(["$live@uma.example"]))
      expect(yield* repo.takenUmaAddresses(other.id, addresses)).toEqual(new Set(["$else@uma.example"]))
      expect(yield* repo.takenUmaAddresses(platform.id, [])).toEqual(new Set())
    })
  )
}
