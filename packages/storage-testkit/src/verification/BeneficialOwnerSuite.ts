import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { BeneficialOwner, BeneficialOwnerRepo, Page, UnitOfWork, type VerificationStatus } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as VerificationFixtures from "./VerificationFixtures.js"

const firstPage = (limit: number): Page.PageRequest => ({ limit, after: Option.none() })

const withPercentage = (
  stored: BeneficialOwnerRepo.StoredBeneficialOwner,
  ownershipPercentage: number,
  version: number
): BeneficialOwnerRepo.StoredBeneficialOwner => ({
  ...stored,
  owner: new BeneficialOwner.BeneficialOwner({ ...stored.owner, ownershipPercentage, updatedAt: Fixtures.at(60_000) }),
  version
})

const resolved = (
  stored: BeneficialOwnerRepo.StoredBeneficialOwner,
  kycStatus: VerificationStatus.KycStatus,
  offsetMillis: number,
  version: number
): BeneficialOwnerRepo.StoredBeneficialOwner => ({
  ...stored,
  owner: new BeneficialOwner.BeneficialOwner({ ...stored.owner, kycStatus, updatedAt: Fixtures.at(offsetMillis) }),
  version
})

/**
 * Beneficial owners: scoped to their platform with their write-only identifier, paged newest first and listed
 * oldest first per customer, updated by compare-and-set (one of many concurrent writers), resolved without ever
 * changing a final status, and undone with a failed unit of work.
 */
export const register = (it: Methods) => {
  it.effect("finds an owner as inserted, with its identifier at version 1, only on its platform; inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.owner(VerificationFixtures.customerId(), { offsetMillis: 1_234 })
      yield* repo.insert(mine.id, { ...stored, version: 5 })
      expect(yield* repo.findById(mine.id, stored.owner.id)).toEqual(Option.some(stored))
      expect(yield* repo.findById(other.id, stored.owner.id)).toEqual(Option.none())
      expect(yield* repo.listAll(other.id, stored.owner.customerId)).toEqual([])
      const again = yield* Effect.either(repo.insert(mine.id, withPercentage(stored, 10, 1)))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(mine.id, stored.owner.id)).toEqual(Option.some(stored))
    })
  )

  it.effect(
    "pages a customer's owners newest first by (createdAt, id) with the count; lists them all oldest first",
    () =>
      Effect.gen(function* () {
        const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
        const platform = yield* Fixtures.insertPlatform
        const other = yield* Fixtures.insertPlatform
        const customerId = VerificationFixtures.customerId()
        // Pairs share a creation instant, so the id decides their order.
        const owners = Array.from({ length: 5 }, (_, index) =>
          VerificationFixtures.owner(customerId, { offsetMillis: Math.floor(index / 2) * 1000 })
        )
        for (const stored of owners) yield* repo.insert(platform.id, stored)
        yield* repo.insert(platform.id, VerificationFixtures.owner(VerificationFixtures.customerId()))
        yield* repo.insert(other.id, VerificationFixtures.owner(customerId))
        const newestFirst = owners.map((stored) => stored.owner).sort((a, b) => Page.compareNewestFirst(a, b))

        const first = yield* repo.list(platform.id, customerId, firstPage(3))
        expect(first.data).toEqual(newestFirst.slice(0, 3))
        expect([first.hasMore, first.totalCount]).toEqual([true, 5])
        const cursor = yield* Page.decodeCursor(first.nextCursor ?? "")
        const second = yield* repo.list(platform.id, customerId, { limit: 3, after: Option.some(cursor) })
        expect(second.data).toEqual(newestFirst.slice(3))
        expect([second.hasMore, second.nextCursor, second.totalCount]).toEqual([false, undefined, 5])

        expect(yield* repo.listAll(platform.id, customerId)).toEqual(
          [...owners].sort((a, b) => Page.compareNewestFirst(b.owner, a.owner))
        )
        expect((yield* repo.list(other.id, VerificationFixtures.customerId(), firstPage(3))).totalCount).toBe(0)
      })
  )

  it.effect("updates an owner only at the version it was read at, storing the next version and identifier", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.owner(VerificationFixtures.customerId())
      yield* repo.insert(platform.id, stored)
      const next = { ...withPercentage(stored, 80, 2), identifier: "987-65-4321" }
      expect(yield* repo.update(other.id, next, 1)).toBe(false)
      expect(yield* repo.update(platform.id, next, 1)).toBe(true)
      expect(yield* repo.update(platform.id, withPercentage(stored, 5, 2), 1)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.owner.id)).toEqual(Option.some(next))
    })
  )

  it.effect("lets exactly one of 16 concurrent updates from one version apply", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.owner(VerificationFixtures.customerId())
      yield* repo.insert(platform.id, stored)
      const applied = yield* Effect.all(
        Array.from({ length: 16 }, (_, index) => repo.update(platform.id, withPercentage(stored, index, 2), 1)),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, stored.owner.id))
      expect([found.version, found.owner.ownershipPercentage]).toEqual([2, applied.indexOf(true)])
    })
  )

  it.effect("resolves the KYC status until it is final, bumping the version; never changes APPROVED or REJECTED", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customerId = VerificationFixtures.customerId()
      const approved = VerificationFixtures.owner(customerId)
      const rejected = VerificationFixtures.owner(customerId)
      yield* repo.insert(platform.id, approved)
      yield* repo.insert(platform.id, rejected)

      expect(yield* repo.resolveKycStatus(other.id, approved.owner.id, "PENDING", Fixtures.at(1))).toBe(false)
      expect(yield* repo.resolveKycStatus(platform.id, approved.owner.id, "PENDING", Fixtures.at(1))).toBe(true)
      expect(yield* repo.findById(platform.id, approved.owner.id)).toEqual(
        Option.some(resolved(approved, "PENDING", 1, 2))
      )
      // An update read before the resolution no longer applies.
      expect(yield* repo.update(platform.id, withPercentage(approved, 1, 2), 1)).toBe(false)
      expect(yield* repo.resolveKycStatus(platform.id, approved.owner.id, "APPROVED", Fixtures.at(2))).toBe(true)
      expect(yield* repo.resolveKycStatus(platform.id, rejected.owner.id, "REJECTED", Fixtures.at(2))).toBe(true)
      for (const status of ["UNVERIFIED", "PENDING", "APPROVED", "REJECTED"] as const) {
        expect(yield* repo.resolveKycStatus(platform.id, approved.owner.id, status, Fixtures.at(3))).toBe(false)
        expect(yield* repo.resolveKycStatus(platform.id, rejected.owner.id, status, Fixtures.at(3))).toBe(false)
      }
      expect(yield* repo.findById(platform.id, approved.owner.id)).toEqual(
        Option.some(resolved(approved, "APPROVED", 2, 3))
      )
      expect(yield* repo.findById(platform.id, rejected.owner.id)).toEqual(
        Option.some(resolved(rejected, "REJECTED", 2, 2))
      )
      const missing = VerificationFixtures.beneficialOwnerId()
      expect(yield* repo.resolveKycStatus(platform.id, missing, "APPROVED", Fixtures.at(3))).toBe(false)
    })
  )

  it.effect("lets exactly one of 16 concurrent final resolutions apply", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = VerificationFixtures.owner(VerificationFixtures.customerId())
      yield* repo.insert(platform.id, stored)
      const statuses = Array.from({ length: 16 }, (_, index): VerificationStatus.KycStatus =>
        index % 2 === 0 ? "APPROVED" : "REJECTED"
      )
      const applied = yield* Effect.all(
        statuses.map((status) => repo.resolveKycStatus(platform.id, stored.owner.id, status, Fixtures.at(1))),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, stored.owner.id))
      expect([found.owner.kycStatus, found.version]).toEqual([statuses[applied.indexOf(true)], 2])
    })
  )

  it.effect("undoes every write of a unit of work that fails", () =>
    Effect.gen(function* () {
      const repo = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const customerId = VerificationFixtures.customerId()
      const kept = VerificationFixtures.owner(customerId)
      const resolvedInside = VerificationFixtures.owner(customerId, { offsetMillis: 1 })
      yield* repo.insert(platform.id, kept)
      yield* repo.insert(platform.id, resolvedInside)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, VerificationFixtures.owner(customerId, { offsetMillis: 2 }))
            yield* repo.update(platform.id, withPercentage(kept, 99, 2), 1)
            yield* repo.resolveKycStatus(platform.id, resolvedInside.owner.id, "APPROVED", Fixtures.at(3))
            return yield* Effect.fail("no" as const)
          })
        )
      )
      expect(failed).toEqual(Either.left("no"))
      expect(yield* repo.listAll(platform.id, customerId)).toEqual([kept, resolvedInside])
    })
  )
}
