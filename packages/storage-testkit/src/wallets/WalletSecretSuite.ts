import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { UnitOfWork, WalletSecretRepo } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as WalletFixtures from "./WalletFixtures.js"

const sealed = () => `sealed:${globalThis.crypto.randomUUID()}`

/** Wallet secrets: one per wallet and platform, the first kept for life, agreed on by concurrent first callers. */
export const register = (it: Methods) => {
  it.effect("keeps a wallet's first secret and answers it to every later call, per wallet and platform", () =>
    Effect.gen(function* () {
      const repo = yield* WalletSecretRepo.WalletSecretRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const first = sealed()
      expect(yield* repo.keep(platform.id, wallet, first, Fixtures.at(0))).toBe(first)
      expect(yield* repo.keep(platform.id, wallet, sealed(), Fixtures.at(1_000))).toBe(first)
      const theirs = sealed()
      expect(yield* repo.keep(other.id, wallet, theirs, Fixtures.at(0))).toBe(theirs)
      const neighbour = sealed()
      expect(yield* repo.keep(platform.id, WalletFixtures.walletId(), neighbour, Fixtures.at(0))).toBe(neighbour)
      expect(yield* repo.keep(platform.id, wallet, sealed(), Fixtures.at(2_000))).toBe(first)
    })
  )

  it.effect("answers one secret to 64 concurrent first calls, one of theirs", () =>
    Effect.gen(function* () {
      const repo = yield* WalletSecretRepo.WalletSecretRepo
      const platform = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const candidates = Array.from({ length: 64 }, sealed)
      const kept = yield* Effect.all(
        candidates.map((candidate) => repo.keep(platform.id, wallet, candidate, Fixtures.at(0))),
        { concurrency: "unbounded" }
      )
      expect(new Set(kept).size).toBe(1)
      expect(candidates).toContain(kept[0])
      expect(yield* repo.keep(platform.id, wallet, sealed(), Fixtures.at(1))).toBe(kept[0])
    })
  )

  it.effect("forgets a secret kept by a unit of work that failed", () =>
    Effect.gen(function* () {
      const repo = yield* WalletSecretRepo.WalletSecretRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(repo.keep(platform.id, wallet, sealed(), Fixtures.at(0)), Effect.fail("abandoned" as const))
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      const second = sealed()
      expect(yield* repo.keep(platform.id, wallet, second, Fixtures.at(1))).toBe(second)
    })
  )
}
