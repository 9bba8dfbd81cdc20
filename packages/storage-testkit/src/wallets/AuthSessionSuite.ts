import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AuthSession, AuthSessionRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as WalletFixtures from "./WalletFixtures.js"

const minute = 60_000

const revokedAt = (session: AuthSession.AuthSession, offsetMillis: number) =>
  new AuthSession.AuthSession({
    ...session,
    revokedAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis)
  })

/**
 * Wallet sessions: stored intact and found on their platform only, listed while active (neither revoked nor
 * expired) oldest first, and revoked once, by one of any number of concurrent revocations.
 */
export const register = (it: Methods) => {
  it.effect("finds each session as inserted, every field intact, only within its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const sessions = [
        WalletFixtures.session({ accountId, offsetMillis: 1_234 }),
        WalletFixtures.session({ accountId, revokedAt: Fixtures.at(5_678) })
      ]
      for (const session of sessions) yield* repo.insert(mine.id, session)
      for (const session of sessions) {
        expect(yield* repo.findById(mine.id, session.id)).toEqual(Option.some(session))
        expect(yield* repo.findById(other.id, session.id)).toEqual(Option.none())
      }
      expect(yield* repo.listActive(other.id, accountId, Fixtures.at(0))).toEqual([])
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const platform = yield* Fixtures.insertPlatform
      const first = WalletFixtures.session({ accountId: WalletFixtures.walletId() })
      yield* repo.insert(platform.id, first)
      const refused = yield* Effect.either(
        repo.insert(platform.id, new AuthSession.AuthSession({ ...first, nickname: "other" }))
      )
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, first.id)).toEqual(Option.some(first))
    })
  )

  it.effect("lists the account's sessions active at a time, oldest first, ties by id", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const platform = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const session = (offsetMillis: number, lifetimeMillis = 15 * minute) =>
        WalletFixtures.session({ accountId, offsetMillis, lifetimeMillis })
      const later = session(2 * minute)
      const earlier = session(1 * minute)
      const tied = [session(3 * minute), session(3 * minute)].sort((a, b) => (a.id < b.id ? -1 : 1))
      // Expires exactly at the time asked about: no longer active then.
      const expiring = session(0, 10 * minute)
      const revoked = WalletFixtures.session({ accountId, revokedAt: Fixtures.at(minute) })
      const elsewhere = WalletFixtures.session({ accountId: WalletFixtures.walletId() })
      for (const each of [later, ...tied, expiring, earlier, revoked, elsewhere]) yield* repo.insert(platform.id, each)

      const ids = (sessions: ReadonlyArray<AuthSession.AuthSession>) => sessions.map((each) => each.id)
      expect(ids(yield* repo.listActive(platform.id, accountId, Fixtures.at(10 * minute - 1)))).toEqual(
        ids([expiring, earlier, later, ...tied])
      )
      expect(yield* repo.listActive(platform.id, accountId, Fixtures.at(10 * minute))).toEqual([
        earlier,
        later,
        ...tied
      ])
      expect(ids(yield* repo.listActive(platform.id, accountId, Fixtures.at(17 * minute)))).toEqual(ids(tied))
      expect(yield* repo.listActive(platform.id, accountId, Fixtures.at(18 * minute))).toEqual([])
    })
  )

  it.effect("revokes an active session once, setting revokedAt and updatedAt; never an expired one", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const session = WalletFixtures.session({ accountId, lifetimeMillis: 10 * minute })
      const expired = WalletFixtures.session({ accountId, lifetimeMillis: minute })
      yield* repo.insert(platform.id, session)
      yield* repo.insert(platform.id, expired)

      expect(yield* repo.revoke(other.id, session.id, Fixtures.at(minute))).toBe(false)
      expect(yield* repo.revoke(platform.id, expired.id, Fixtures.at(minute))).toBe(false)
      expect(yield* repo.findById(platform.id, expired.id)).toEqual(Option.some(expired))
      expect(yield* repo.revoke(platform.id, session.id, Fixtures.at(2 * minute))).toBe(true)
      expect(yield* repo.revoke(platform.id, session.id, Fixtures.at(3 * minute))).toBe(false)
      expect(yield* repo.findById(platform.id, session.id)).toEqual(Option.some(revokedAt(session, 2 * minute)))
      expect(yield* repo.listActive(platform.id, accountId, Fixtures.at(2 * minute))).toEqual([])
    })
  )

  it.effect("lets exactly one of 64 concurrent revocations of one session report it", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const platform = yield* Fixtures.insertPlatform
      const session = WalletFixtures.session({ accountId: WalletFixtures.walletId() })
      yield* repo.insert(platform.id, session)
      const revoked = yield* Effect.all(
        Array.from({ length: 64 }, () => repo.revoke(platform.id, session.id, Fixtures.at(minute))),
        { concurrency: "unbounded" }
      )
      expect(revoked.filter((each) => each)).toHaveLength(1)
      expect(yield* repo.findById(platform.id, session.id)).toEqual(Option.some(revokedAt(session, minute)))
    })
  )

  it.effect("revokes every active session a credential issued, on its platform only, and counts them", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const authMethodId = WalletFixtures.authMethodId()
      const issued = [0, 1, 2].map((index) => WalletFixtures.session({ accountId, authMethodId, offsetMillis: index }))
      const expired = WalletFixtures.session({ accountId, authMethodId, lifetimeMillis: 1 })
      const alreadyRevoked = WalletFixtures.session({ accountId, authMethodId, revokedAt: Fixtures.at(1) })
      const byAnother = WalletFixtures.session({ accountId })
      const onOther = WalletFixtures.session({ accountId, authMethodId })
      for (const each of [...issued, expired, alreadyRevoked, byAnother]) yield* repo.insert(platform.id, each)
      yield* repo.insert(other.id, onOther)

      // A unit of work that fails undoes the revocations.
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(repo.revokeIssuedBy(platform.id, authMethodId, Fixtures.at(minute)), Effect.fail("no"))
        )
      )
      expect(failed).toEqual(Either.left("no"))
      expect(yield* repo.listActive(platform.id, accountId, Fixtures.at(minute))).toHaveLength(4)

      expect(yield* repo.revokeIssuedBy(platform.id, authMethodId, Fixtures.at(minute))).toBe(3)
      for (const each of issued) {
        expect(yield* repo.findById(platform.id, each.id)).toEqual(Option.some(revokedAt(each, minute)))
      }
      expect(yield* repo.findById(platform.id, expired.id)).toEqual(Option.some(expired))
      expect(yield* repo.findById(platform.id, alreadyRevoked.id)).toEqual(Option.some(alreadyRevoked))
      expect(yield* repo.listActive(platform.id, accountId, Fixtures.at(minute))).toEqual([byAnother])
      expect(yield* repo.findById(other.id, onOther.id)).toEqual(Option.some(onOther))
      expect(yield* repo.revokeIssuedBy(platform.id, authMethodId, Fixtures.at(minute))).toBe(0)
    })
  )
}
