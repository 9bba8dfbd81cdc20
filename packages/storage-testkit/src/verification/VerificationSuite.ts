import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Customer, Page, UnitOfWork, Verification, VerificationRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const uuid = () => globalThis.crypto.randomUUID()

const customerId = () => Customer.CustomerId.make(`Customer:${uuid()}`)

/** A verification of `customer` created at `Fixtures.at(offsetMillis)`. */
const verification = (
  options: {
    readonly customerId?: Customer.CustomerId
    readonly offsetMillis?: number
    readonly status?: Verification.VerificationStatus
  } = {}
): Verification.Verification => {
  const owner = options.customerId ?? customerId()
  const status = options.status ?? "APPROVED"
  return new Verification.Verification({
    id: Verification.VerificationId.make(`Verification:${uuid()}`),
    customerId: owner,
    verificationStatus: status,
    errors:
      status === "RESOLVE_ERRORS"
        ? [
            new Verification.VerificationError({
              resourceId: owner,
              type: "MISSING_IDENTITY_DOCUMENT",
              acceptedDocumentTypes: ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"],
              reason: "An identity document is required"
            }),
            new Verification.VerificationError({
              resourceId: owner,
              type: "MISSING_FIELD",
              field: "birthDate",
              reason: "birthDate is required"
            })
          ]
        : [],
    createdAt: Fixtures.at(options.offsetMillis ?? 0)
  })
}

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

/**
 * Verification records: every field survives storage, a platform sees only its own, an id is inserted once, units
 * of work take inserts with them, and lists filter by customer and status, newest first, in keyset pages.
 */
export const register = (it: Methods) => {
  it.effect("finds each verification as inserted, errors and all, and never another platform's", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationRepo.VerificationRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const records = [verification({ status: "RESOLVE_ERRORS" }), verification({ offsetMillis: 1_234 })]
      for (const each of records) yield* repo.insert(platform.id, each)
      for (const each of records) expect(yield* repo.findById(platform.id, each.id)).toEqual(Option.some(each))
      expect(yield* repo.findById(other.id, records[0]!.id)).toEqual(Option.none())
      expect(yield* repo.findById(platform.id, verification().id)).toEqual(Option.none())
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationRepo.VerificationRepo
      const platform = yield* Fixtures.insertPlatform
      const first = verification()
      yield* repo.insert(platform.id, first)
      const again = new Verification.Verification({ ...first, verificationStatus: "REJECTED" })
      const refused = yield* Effect.either(repo.insert(platform.id, again))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, first.id)).toEqual(Option.some(first))
    })
  )

  it.effect("keeps the inserts of a unit of work only when it commits", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationRepo.VerificationRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const fresh = verification()
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.insert(platform.id, fresh), Effect.fail("abandoned" as const)))
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.none())
      yield* store.transaction(repo.insert(platform.id, fresh))
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.some(fresh))
    })
  )

  it.effect("lists newest first in keyset pages, filtered by customer and status, with the total count", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationRepo.VerificationRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const ada = customerId()
      const grace = customerId()
      const adas = [
        verification({ customerId: ada, offsetMillis: 0, status: "RESOLVE_ERRORS" }),
        verification({ customerId: ada, offsetMillis: 1_000, status: "RESOLVE_ERRORS" }),
        verification({ customerId: ada, offsetMillis: 2_000, status: "PENDING_MANUAL_REVIEW" })
      ]
      const graces = [verification({ customerId: grace, offsetMillis: 1_500, status: "APPROVED" })]
      for (const each of [...adas, ...graces]) yield* repo.insert(platform.id, each)
      yield* repo.insert(other.id, verification({ customerId: ada }))

      const all = yield* repo.list(platform.id, {}, firstPage(10))
      expect(all.data.map((each) => each.id)).toEqual([adas[2]!, graces[0]!, adas[1]!, adas[0]!].map((v) => v.id))
      expect(all.totalCount).toBe(4)
      expect(all.hasMore).toBe(false)

      const first = yield* repo.list(platform.id, { customerId: ada }, firstPage(2))
      expect(first.data).toEqual([adas[2], adas[1]])
      expect(first.hasMore).toBe(true)
      expect(first.totalCount).toBe(3)
      const cursor = yield* Page.decodeCursor(first.nextCursor!)
      const second = yield* repo.list(platform.id, { customerId: ada }, { limit: 2, after: Option.some(cursor) })
      expect(second.data).toEqual([adas[0]])
      expect(second.hasMore).toBe(false)

      const errors = yield* repo.list(
        platform.id,
        { customerId: ada, verificationStatus: "RESOLVE_ERRORS" },
        firstPage(10)
      )
      expect(errors.data).toEqual([adas[1], adas[0]])
      expect(errors.totalCount).toBe(2)
      const approved = yield* repo.list(platform.id, { verificationStatus: "APPROVED" }, firstPage(10))
      expect(approved.data).toEqual(graces)
      const none = yield* repo.list(platform.id, { customerId: customerId() }, firstPage(10))
      expect(none).toEqual({ data: [], hasMore: false, totalCount: 0 })
    })
  )
}
