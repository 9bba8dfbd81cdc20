import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { EnrolledFactor, FactorReset, PendingChallenge, ScaLockout, ScaRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const customerId = () => `Customer:${globalThis.crypto.randomUUID()}`
const id = (prefix: string) => `${prefix}:${globalThis.crypto.randomUUID()}`

const factor = (owner: string, offset = 0, kind: "TOTP" | "PASSKEY" = "TOTP") =>
  new EnrolledFactor.EnrolledFactor({
    id: id("ScaFactor"),
    customerId: owner,
    factor: kind,
    status: "ACTIVE",
    ...(kind === "TOTP" ? { secret: "JBSWY3DPEHPK3PXP" } : { credentialId: "cred", publicKey: "pk", counter: 3 }),
    createdAt: Fixtures.at(offset)
  })

const challenge = (owner: string, subjectId = id("Quote"), purpose: PendingChallenge.ChallengePurpose = "QUOTE") =>
  new PendingChallenge.PendingChallenge({
    id: id("ScaChallenge"),
    customerId: owner,
    purpose,
    subjectId,
    factor: "SMS_OTP",
    availableFactors: ["SMS_OTP"],
    codeDigest: "ab".repeat(32),
    expiresAt: Fixtures.at(300_000),
    failedAttempts: 0,
    sentAt: Fixtures.at(0)
  })

/**
 * The SCA store: factors, challenges (taken once, every failure counted), guards, resets and trusted beneficiaries,
 * each only within its own platform, and writes undone with a failed unit of work.
 */
export const register = (it: Methods) => {
  it.effect("keeps a customer's factors oldest first, replaces by id, deletes only the owner's", () =>
    Effect.gen(function* () {
      const repo = yield* ScaRepo.ScaRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const owner = customerId()
      const second = factor(owner, 1_000, "PASSKEY")
      const first = factor(owner, 0)
      yield* repo.putFactor(mine.id, second)
      yield* repo.putFactor(mine.id, first)
      expect(yield* repo.listFactors(mine.id, owner)).toEqual([first, second])
      expect(yield* repo.listFactors(other.id, owner)).toEqual([])
      const pending = new EnrolledFactor.EnrolledFactor({ ...first, status: "PENDING" })
      yield* repo.putFactor(mine.id, pending)
      expect(yield* repo.listFactors(mine.id, owner)).toEqual([pending, second])
      expect(yield* repo.deleteFactor(mine.id, customerId(), first.id)).toBe(false)
      expect(yield* repo.deleteFactor(other.id, owner, first.id)).toBe(false)
      expect(yield* repo.deleteFactor(mine.id, owner, first.id)).toBe(true)
      expect(yield* repo.deleteFactor(mine.id, owner, first.id)).toBe(false)
      expect(yield* repo.listFactors(mine.id, owner)).toEqual([second])
    })
  )

  it.effect("finds a challenge by id and the newest by subject; exactly one of 32 concurrent takes wins", () =>
    Effect.gen(function* () {
      const repo = yield* ScaRepo.ScaRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const owner = customerId()
      const older = challenge(owner, "ExternalAccount:1", "TRUST")
      const newer = challenge(owner, "ExternalAccount:1", "TRUST")
      yield* repo.putChallenge(platform.id, older)
      yield* repo.putChallenge(platform.id, newer)
      expect(yield* repo.findChallenge(platform.id, older.id)).toEqual(Option.some(older))
      expect(yield* repo.findChallenge(other.id, older.id)).toEqual(Option.none())
      expect(yield* repo.findChallengeFor(platform.id, owner, "TRUST", "ExternalAccount:1")).toEqual(Option.some(newer))
      expect(yield* repo.findChallengeFor(platform.id, owner, "UNTRUST", "ExternalAccount:1")).toEqual(Option.none())
      expect(yield* repo.takeChallenge(other.id, newer.id)).toBe(false)
      const taken = yield* Effect.all(
        Array.from({ length: 32 }, () => repo.takeChallenge(platform.id, newer.id)),
        { concurrency: "unbounded" }
      )
      expect(taken.filter((each) => each)).toHaveLength(1)
      expect(yield* repo.findChallengeFor(platform.id, owner, "TRUST", "ExternalAccount:1")).toEqual(Option.some(older))
    })
  )

  it.effect("counts every wrong code against a challenge, concurrent ones included; 0 for one gone", () =>
    Effect.gen(function* () {
      const repo = yield* ScaRepo.ScaRepo
      const platform = yield* Fixtures.insertPlatform
      const sent = challenge(customerId())
      yield* repo.putChallenge(platform.id, sent)
      const counts = yield* Effect.all(
        Array.from({ length: 8 }, () => repo.recordChallengeFailure(platform.id, sent.id)),
        { concurrency: "unbounded" }
      )
      expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      expect(yield* repo.findChallenge(platform.id, sent.id)).toEqual(
        Option.some(new PendingChallenge.PendingChallenge({ ...sent, failedAttempts: 8 }))
      )
      expect(yield* repo.recordChallengeFailure(platform.id, "ScaChallenge:gone")).toBe(0)
    })
  )

  it.effect("keeps a guard per customer (replaced on put) and undoes a take within a failed unit of work", () =>
    Effect.gen(function* () {
      const repo = yield* ScaRepo.ScaRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const owner = customerId()
      expect(yield* repo.findGuard(platform.id, owner)).toEqual(Option.none())
      const locked = ScaLockout.afterFailure(
        new ScaLockout.LoginGuard({ customerId: owner, failedAttempts: 4, suspended: false }),
        Fixtures.at(0)
      )
      yield* repo.putGuard(platform.id, locked)
      expect(yield* repo.findGuard(platform.id, owner)).toEqual(Option.some(locked))
      const cleared = ScaLockout.afterSuccess(locked)
      yield* repo.putGuard(platform.id, cleared)
      expect(yield* repo.findGuard(platform.id, owner)).toEqual(Option.some(cleared))
      const sent = challenge(owner)
      yield* repo.putChallenge(platform.id, sent)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.takeChallenge(platform.id, sent.id), Effect.fail("abandoned" as const)))
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findChallenge(platform.id, sent.id)).toEqual(Option.some(sent))
    })
  )

  it.effect("keeps resets per customer and trusted beneficiaries per platform", () =>
    Effect.gen(function* () {
      const repo = yield* ScaRepo.ScaRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const owner = customerId()
      const reset = new FactorReset.FactorReset({
        id: id("ScaReset"),
        customerId: owner,
        factor: "TOTP",
        status: "LIVENESS_PASSED",
        expiresAt: Fixtures.at(86_400_000),
        createdAt: Fixtures.at(0)
      })
      yield* repo.putReset(platform.id, reset)
      expect(yield* repo.findReset(platform.id, owner, reset.id)).toEqual(Option.some(reset))
      expect(yield* repo.findReset(platform.id, customerId(), reset.id)).toEqual(Option.none())
      const done = new FactorReset.FactorReset({ ...reset, status: "COMPLETED", completedAt: Fixtures.at(5) })
      yield* repo.putReset(platform.id, done)
      expect(yield* repo.findReset(platform.id, owner, reset.id)).toEqual(Option.some(done))
      expect(yield* repo.isTrusted(platform.id, "ExternalAccount:9")).toBe(false)
      yield* repo.setTrusted(platform.id, owner, "ExternalAccount:9", true)
      yield* repo.setTrusted(platform.id, owner, "ExternalAccount:9", true)
      expect(yield* repo.isTrusted(platform.id, "ExternalAccount:9")).toBe(true)
      expect(yield* repo.isTrusted(other.id, "ExternalAccount:9")).toBe(false)
      yield* repo.setTrusted(platform.id, owner, "ExternalAccount:9", false)
      expect(yield* repo.isTrusted(platform.id, "ExternalAccount:9")).toBe(false)
    })
  )
}
