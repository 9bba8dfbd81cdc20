import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AuthSession, AuthSessionRepo, SignedRequest, SignedRequestRepo, UnitOfWork } from "@payrail/core"
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

const consumedAt = (request: SignedRequest.SignedRequest, offsetMillis: number) =>
  new SignedRequest.SignedRequest({ ...request, consumedAt: Fixtures.at(offsetMillis) })

/**
 * Wallet sessions: stored intact and found on their platform only, listed while active (neither revoked nor
 * expired) oldest first, also through one of the wallet's sessions, and revoked once, by one of any number of
 * concurrent revocations, with a signed request consumed in the same step or not at all.
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

  it.effect("lists the active sessions of the wallet that owns a session, that session among them when active", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const later = WalletFixtures.session({ accountId, offsetMillis: 2 * minute })
      const earlier = WalletFixtures.session({ accountId, offsetMillis: minute })
      const revoked = WalletFixtures.session({ accountId, revokedAt: Fixtures.at(minute) })
      const expired = WalletFixtures.session({ accountId, lifetimeMillis: minute })
      const elsewhere = WalletFixtures.session({ accountId: WalletFixtures.walletId() })
      for (const each of [later, earlier, revoked, expired, elsewhere]) yield* repo.insert(platform.id, each)

      const at = Fixtures.at(3 * minute)
      for (const each of [later, earlier, revoked, expired]) {
        expect(yield* repo.listActiveBeside(platform.id, each.id, at)).toEqual([earlier, later])
        expect(yield* repo.listActiveBeside(other.id, each.id, at)).toEqual([])
      }
      expect(yield* repo.listActiveBeside(platform.id, elsewhere.id, at)).toEqual([elsewhere])
      expect(yield* repo.listActiveBeside(platform.id, WalletFixtures.session({ accountId }).id, at)).toEqual([])
    })
  )

  it.effect("consumes a signed request and revokes a session in one step, or changes neither", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const requests = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const session = WalletFixtures.session({ accountId, lifetimeMillis: 10 * minute })
      const expired = WalletFixtures.session({ accountId, lifetimeMillis: minute })
      const request = WalletFixtures.signedRequest({ accountId })
      const used = WalletFixtures.signedRequest({ accountId })
      for (const each of [session, expired]) yield* repo.insert(platform.id, each)
      for (const each of [request, used]) yield* requests.insert(platform.id, each)
      expect(yield* requests.consume(platform.id, used.id, Fixtures.at(0))).toBe(true)

      const unknown = WalletFixtures.signedRequest({ accountId }).id
      const at = Fixtures.at(2 * minute)
      expect(yield* repo.revokeConsuming(platform.id, session.id, used.id, at)).toBe("requestUsed")
      expect(yield* repo.revokeConsuming(platform.id, session.id, unknown, at)).toBe("requestUsed")
      expect(yield* repo.revokeConsuming(other.id, session.id, request.id, at)).toBe("requestUsed")
      expect(yield* repo.revokeConsuming(platform.id, expired.id, request.id, at)).toBe("sessionInactive")
      expect(yield* repo.revokeConsuming(platform.id, WalletFixtures.session({ accountId }).id, request.id, at)).toBe(
        "sessionInactive"
      )
      // Nothing changed so far.
      expect(yield* repo.findById(platform.id, session.id)).toEqual(Option.some(session))
      expect(yield* repo.findById(platform.id, expired.id)).toEqual(Option.some(expired))
      expect(yield* requests.findById(platform.id, request.id)).toEqual(Option.some(request))
      expect(yield* requests.findById(platform.id, used.id)).toEqual(Option.some(consumedAt(used, 0)))

      expect(yield* repo.revokeConsuming(platform.id, session.id, request.id, at)).toBe("revoked")
      expect(yield* repo.findById(platform.id, session.id)).toEqual(Option.some(revokedAt(session, 2 * minute)))
      expect(yield* requests.findById(platform.id, request.id)).toEqual(Option.some(consumedAt(request, 2 * minute)))
      expect(yield* repo.revokeConsuming(platform.id, session.id, request.id, Fixtures.at(3 * minute))).toBe(
        "requestUsed"
      )
      // An open request on a revoked session stays open.
      const late = WalletFixtures.signedRequest({ accountId })
      yield* requests.insert(platform.id, late)
      expect(yield* repo.revokeConsuming(platform.id, session.id, late.id, at)).toBe("sessionInactive")
      expect(yield* requests.findById(platform.id, late.id)).toEqual(Option.some(late))
    })
  )

  it.effect("lets exactly one of 64 concurrent revocations consuming one request apply; the others find it used", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const requests = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const session = WalletFixtures.session({ accountId })
      const request = WalletFixtures.signedRequest({ accountId })
      yield* repo.insert(platform.id, session)
      yield* requests.insert(platform.id, request)
      const outcomes = yield* Effect.all(
        Array.from({ length: 64 }, () =>
          repo.revokeConsuming(platform.id, session.id, request.id, Fixtures.at(minute))
        ),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((each) => each === "revoked")).toHaveLength(1)
      expect(outcomes.filter((each) => each === "requestUsed")).toHaveLength(63)
      expect(yield* repo.findById(platform.id, session.id)).toEqual(Option.some(revokedAt(session, minute)))
      expect(yield* requests.findById(platform.id, request.id)).toEqual(Option.some(consumedAt(request, minute)))
    })
  )

  it.effect("lets exactly one of 64 concurrent revocations of one session with their own requests apply", () =>
    Effect.gen(function* () {
      const repo = yield* AuthSessionRepo.AuthSessionRepo
      const requests = yield* SignedRequestRepo.SignedRequestRepo
      const platform = yield* Fixtures.insertPlatform
      const accountId = WalletFixtures.walletId()
      const session = WalletFixtures.session({ accountId })
      yield* repo.insert(platform.id, session)
      const issued = Array.from({ length: 64 }, () => WalletFixtures.signedRequest({ accountId }))
      for (const each of issued) yield* requests.insert(platform.id, each)
      const outcomes = yield* Effect.all(
        issued.map((each) => repo.revokeConsuming(platform.id, session.id, each.id, Fixtures.at(minute))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((each) => each === "revoked")).toHaveLength(1)
      expect(outcomes.filter((each) => each === "sessionInactive")).toHaveLength(63)
      // Only the winner's request is used up.
      const stored = yield* Effect.forEach(issued, (each) => requests.findById(platform.id, each.id))
      expect(stored.filter((each) => Option.isSome(each) && each.value.consumedAt !== undefined)).toHaveLength(1)
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
