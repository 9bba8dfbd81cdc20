import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { OtpChallenge, OtpChallengeRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as WalletFixtures from "./WalletFixtures.js"

/**
 * OTP challenges: one per credential and platform, replaced by a new one, taken once (by one of any number of
 * concurrent correct answers, never once replaced), and every wrong answer counted.
 */
export const register = (it: Methods) => {
  it.effect("finds the challenge put last for a credential, every field intact, only within its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const credential = WalletFixtures.authMethodId()
      const first = WalletFixtures.otpChallenge(credential, 0, 2)
      yield* repo.put(mine.id, first)
      expect(yield* repo.find(mine.id, credential)).toEqual(Option.some(first))
      expect(yield* repo.find(other.id, credential)).toEqual(Option.none())
      expect(yield* repo.find(mine.id, WalletFixtures.authMethodId())).toEqual(Option.none())

      const theirs = WalletFixtures.otpChallenge(credential, 500)
      yield* repo.put(other.id, theirs)
      const replacement = WalletFixtures.otpChallenge(credential, 1_000)
      yield* repo.put(mine.id, replacement)
      expect(yield* repo.find(mine.id, credential)).toEqual(Option.some(replacement))
      expect(yield* repo.find(other.id, credential)).toEqual(Option.some(theirs))
    })
  )

  it.effect("takes the challenge issued at a time once, and never one replaced meanwhile", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const credential = WalletFixtures.authMethodId()
      const first = WalletFixtures.otpChallenge(credential, 0)
      const second = WalletFixtures.otpChallenge(credential, 1)
      yield* repo.put(platform.id, first)
      yield* repo.put(platform.id, second)
      expect(yield* repo.take(platform.id, credential, first.issuedAt)).toBe(false)
      expect(yield* repo.take(other.id, credential, second.issuedAt)).toBe(false)
      expect(yield* repo.find(platform.id, credential)).toEqual(Option.some(second))
      expect(yield* repo.take(platform.id, credential, second.issuedAt)).toBe(true)
      expect(yield* repo.take(platform.id, credential, second.issuedAt)).toBe(false)
      expect(yield* repo.find(platform.id, credential)).toEqual(Option.none())
    })
  )

  it.effect("lets exactly one of 64 concurrent takes of one challenge take it", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const platform = yield* Fixtures.insertPlatform
      const challenge = WalletFixtures.otpChallenge(WalletFixtures.authMethodId())
      yield* repo.put(platform.id, challenge)
      const taken = yield* Effect.all(
        Array.from({ length: 64 }, () => repo.take(platform.id, challenge.authMethodId, challenge.issuedAt)),
        { concurrency: "unbounded" }
      )
      expect(taken.filter((each) => each)).toHaveLength(1)
    })
  )

  it.effect("keeps a challenge taken by a unit of work that failed", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const challenge = WalletFixtures.otpChallenge(WalletFixtures.authMethodId())
      yield* repo.put(platform.id, challenge)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(
            repo.take(platform.id, challenge.authMethodId, challenge.issuedAt),
            Effect.fail("abandoned" as const)
          )
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.find(platform.id, challenge.authMethodId)).toEqual(Option.some(challenge))
    })
  )

  it.effect("discards a credential's challenge within its own platform, and undoes it with a failed unit of work", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const challenge = WalletFixtures.otpChallenge(WalletFixtures.authMethodId())
      yield* repo.put(platform.id, challenge)
      yield* repo.put(other.id, challenge)
      const failed = yield* store
        .transaction(Effect.zipRight(repo.discard(platform.id, challenge.authMethodId), Effect.fail("boom")))
        .pipe(Effect.either)
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.find(platform.id, challenge.authMethodId)).toEqual(Option.some(challenge))
      yield* repo.discard(platform.id, challenge.authMethodId)
      yield* repo.discard(platform.id, WalletFixtures.authMethodId())
      expect(yield* repo.find(platform.id, challenge.authMethodId)).toEqual(Option.none())
      expect(yield* repo.find(other.id, challenge.authMethodId)).toEqual(Option.some(challenge))
    })
  )

  it.effect("counts every wrong answer against the challenge issued at a time, concurrent ones included", () =>
    Effect.gen(function* () {
      const repo = yield* OtpChallengeRepo.OtpChallengeRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const challenge = WalletFixtures.otpChallenge(WalletFixtures.authMethodId())
      const credential = challenge.authMethodId
      yield* repo.put(platform.id, challenge)
      expect(yield* repo.recordFailure(platform.id, credential, challenge.issuedAt)).toBe(1)
      expect(yield* repo.recordFailure(other.id, credential, challenge.issuedAt)).toBe(0)
      expect(yield* repo.recordFailure(platform.id, credential, Fixtures.at(1))).toBe(0)
      expect(yield* repo.recordFailure(platform.id, WalletFixtures.authMethodId(), challenge.issuedAt)).toBe(0)

      const counts = yield* Effect.all(
        Array.from({ length: 16 }, () => repo.recordFailure(platform.id, credential, challenge.issuedAt)),
        { concurrency: "unbounded" }
      )
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, index) => index + 2))
      expect(yield* repo.find(platform.id, credential)).toEqual(
        Option.some(new OtpChallenge.OtpChallenge({ ...challenge, failedAttempts: 17 }))
      )
      // A new challenge starts again from zero.
      const next = WalletFixtures.otpChallenge(credential, 1_000)
      yield* repo.put(platform.id, next)
      expect(yield* repo.recordFailure(platform.id, credential, challenge.issuedAt)).toBe(0)
      expect(yield* repo.recordFailure(platform.id, credential, next.issuedAt)).toBe(1)
    })
  )
}
