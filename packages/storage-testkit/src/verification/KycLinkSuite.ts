import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { Customer, type KycLink, KycLinkRepo, type Platform, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

let counter = 0

const link = (
  platformId: Platform.PlatformId,
  overrides: Partial<KycLink.StoredKycLink> = {}
): KycLink.StoredKycLink => {
  counter += 1
  const hash = `${globalThis.crypto.randomUUID()}${globalThis.crypto.randomUUID()}`.replaceAll("-", "")
  return {
    secretHash: hash,
    platformId,
    customerId: Customer.CustomerId.make(`Customer:00000000-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`),
    redirectUri: "https://platform.example/after?x=1",
    createdAt: Fixtures.at(0),
    expiresAt: Fixtures.at(24 * 60 * 60 * 1000),
    spentAt: undefined,
    ...overrides
  }
}

/**
 * Hosted verification links: found by their secret's hash with every field intact, spent once (by exactly one of
 * any number of concurrent spends), never once expired, and a spend rolled back with its unit of work undone.
 */
export const register = (it: Methods) => {
  it.effect("finds a link by its secret's hash, every field intact, and nothing for another hash", () =>
    Effect.gen(function* () {
      const repo = yield* KycLinkRepo.KycLinkRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = link(platform.id)
      const bare = link(platform.id, { redirectUri: undefined })
      yield* repo.insert(stored)
      yield* repo.insert(bare)
      expect(yield* repo.findBySecretHash(stored.secretHash)).toEqual(Option.some(stored))
      expect(yield* repo.findBySecretHash(bare.secretHash)).toEqual(Option.some(bare))
      expect(yield* repo.findBySecretHash("f".repeat(64))).toEqual(Option.none())
    })
  )

  it.effect("spends a link once, before it expires only, and records when", () =>
    Effect.gen(function* () {
      const repo = yield* KycLinkRepo.KycLinkRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = link(platform.id)
      yield* repo.insert(stored)
      expect(yield* repo.spend(stored.secretHash, stored.expiresAt)).toBe(false)
      const at = Fixtures.at(1_000)
      expect(yield* repo.spend(stored.secretHash, at)).toBe(true)
      expect(yield* repo.spend(stored.secretHash, Fixtures.at(2_000))).toBe(false)
      const found = yield* repo.findBySecretHash(stored.secretHash)
      expect(Option.map(found, (value) => value.spentAt && DateTime.toEpochMillis(value.spentAt))).toEqual(
        Option.some(DateTime.toEpochMillis(at))
      )
      expect(yield* repo.spend("e".repeat(64), at)).toBe(false)
    })
  )

  it.effect("lets exactly one of 32 concurrent spends of one link spend it", () =>
    Effect.gen(function* () {
      const repo = yield* KycLinkRepo.KycLinkRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = link(platform.id)
      yield* repo.insert(stored)
      const spent = yield* Effect.all(
        Array.from({ length: 32 }, () => repo.spend(stored.secretHash, Fixtures.at(5))),
        { concurrency: "unbounded" }
      )
      expect(spent.filter(Boolean)).toHaveLength(1)
    })
  )

  it.effect("leaves the link usable when the unit of work that spent it fails", () =>
    Effect.gen(function* () {
      const repo = yield* KycLinkRepo.KycLinkRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const stored = link(platform.id)
      yield* repo.insert(stored)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.spend(stored.secretHash, Fixtures.at(5)), Effect.fail("boom")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(Option.map(yield* repo.findBySecretHash(stored.secretHash), (value) => value.spentAt)).toEqual(
        Option.some(undefined)
      )
      expect(yield* repo.spend(stored.secretHash, Fixtures.at(6))).toBe(true)
    })
  )
}
