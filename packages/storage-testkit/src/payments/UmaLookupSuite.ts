import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Customer, CustomerRepo, UmaAddress, UmaLookup, UmaLookupRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as PaymentFixtures from "./PaymentFixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

const lookup = PaymentFixtures.umaLookup

/**
 * Receiver lookups: every field survives storage, a platform sees only its own, an id is inserted once, and units of
 * work take lookups with them. Customers are found by their UMA address (live ones, on their platform only).
 */
export const register = (it: Methods) => {
  it.effect("finds each lookup as inserted, every field intact, for both kinds of receiver", () =>
    Effect.gen(function* () {
      const repo = yield* UmaLookupRepo.UmaLookupRepo
      const platform = yield* Fixtures.insertPlatform
      const lookups = [
        lookup(),
        lookup({ full: true, offsetMillis: 1_234 }),
        lookup({ receiver: { _tag: "ExternalAccount", accountId: `ExternalAccount:${uuid()}` } })
      ]
      for (const each of lookups) yield* repo.insert(platform.id, each)
      for (const each of lookups) expect(yield* repo.findById(platform.id, each.id)).toEqual(Option.some(each))
      expect(yield* repo.findById(platform.id, lookup().id)).toEqual(Option.none())
    })
  )

  it.effect("never finds a lookup of another platform", () =>
    Effect.gen(function* () {
      const repo = yield* UmaLookupRepo.UmaLookupRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = lookup({ full: true })
      yield* repo.insert(mine.id, stored)
      expect(yield* repo.findById(other.id, stored.id)).toEqual(Option.none())
      expect(yield* repo.findById(mine.id, stored.id)).toEqual(Option.some(stored))
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record", () =>
    Effect.gen(function* () {
      const repo = yield* UmaLookupRepo.UmaLookupRepo
      const platform = yield* Fixtures.insertPlatform
      const first = lookup()
      yield* repo.insert(platform.id, first)
      const again = new UmaLookup.UmaLookup({ ...first, supportedCurrencies: [] })
      const refused = yield* Effect.either(repo.insert(platform.id, again))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, first.id)).toEqual(Option.some(first))
    })
  )

  it.effect("keeps the inserts of a unit of work only when it commits", () =>
    Effect.gen(function* () {
      const repo = yield* UmaLookupRepo.UmaLookupRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const fresh = lookup()
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.insert(platform.id, fresh), Effect.fail("abandoned" as const)))
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.none())
      yield* store.transaction(repo.insert(platform.id, fresh))
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.some(fresh))
    })
  )

  it.effect("finds the live customer with an UMA address beside deleted ones that had it, on its platform only", () =>
    Effect.gen(function* () {
      const customers = yield* CustomerRepo.CustomerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const address = `$ada.${uuid().slice(0, 8)}@pay.example`
      const withAddress = (offsetMillis: number, isDeleted = false) =>
        new Customer.IndividualCustomer({
          ...Fixtures.individual({ offsetMillis }),
          umaAddress: UmaAddress.UmaAddress.make(address),
          isDeleted
        })
      const live = withAddress(1_000)
      for (const customer of [withAddress(2_000, true), live, withAddress(0, true)]) {
        yield* customers.insert(platform.id, customer, Fixtures.noIdentifier)
      }
      const found = yield* customers.findByUmaAddress(platform.id, address)
      expect(Option.map(found, (stored) => stored.customer.id)).toEqual(Option.some(live.id))
      expect(yield* customers.findByUmaAddress(other.id, address)).toEqual(Option.none())
      expect(yield* customers.findByUmaAddress(platform.id, `$nobody@pay.example`)).toEqual(Option.none())
      expect(yield* customers.findByUmaAddress(platform.id, "$nul\u0000@pay.example")).toEqual(Option.none())
    })
  )

  it.effect("purges lookups expired before a time, earliest first, at most `limit` per call, any platform", () =>
    Effect.gen(function* () {
      const repo = yield* UmaLookupRepo.UmaLookupRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      // Expiring a decade before the other tests' lookups: only this test's are purged. A lookup lives 15 minutes.
      const base = -10 * 365 * 24 * 3_600_000
      const expiring = (offsetMillis: number) => lookup({ offsetMillis: base + offsetMillis })
      const expired = [5, 1, 3, 2, 4].map((offset) => expiring(offset * 10))
      const atCutoff = expiring(100)
      const later = expiring(200)
      for (const [index, each] of [...expired, atCutoff, later].entries()) {
        yield* repo.insert(index % 2 === 0 ? platform.id : other.id, each)
      }
      const cutoff = Fixtures.at(base + 100 + 900_000)
      const remaining = Effect.forEach([...expired, atCutoff, later], (each) =>
        Effect.map(
          Effect.all([repo.findById(platform.id, each.id), repo.findById(other.id, each.id)]),
          ([mine, theirs]) => Option.isSome(mine) || Option.isSome(theirs)
        )
      )
      expect(yield* repo.purgeExpired(cutoff, 0)).toBe(0)
      expect(yield* repo.purgeExpired(cutoff, 3)).toBe(3)
      // The three that expired earliest (offsets 10, 20, 30) are gone.
      expect(yield* remaining).toEqual([true, false, false, false, true, true, true])
      expect(yield* repo.purgeExpired(cutoff, 10)).toBe(2)
      expect(yield* repo.purgeExpired(cutoff, 10)).toBe(0)
      expect(yield* remaining).toEqual([false, false, false, false, false, true, true])
    })
  )
}
