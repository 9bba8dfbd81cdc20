import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AuthMethod, AuthMethodRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as WalletFixtures from "./WalletFixtures.js"

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

const countOf = <A>(values: ReadonlyArray<A>, value: A) => values.filter((each) => each === value).length

/**
 * Embedded-wallet credentials beyond listing: the uniqueness rules (one `EMAIL_OTP` and one `SMS_OTP` per account,
 * a passkey once per platform, an OAuth identity once per account) held by the store under concurrency, deletion
 * that never removes an account's last credential, the guarded passkey counter, renaming, and platform scoping.
 */
export const register = (it: Methods) => {
  it.effect("finds a credential by id, every field intact, only within its own platform", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const methods = [
        WalletFixtures.passkey(wallet, { counter: 7, offsetMillis: 1_234 }),
        WalletFixtures.oauth(wallet),
        WalletFixtures.otp(wallet, "SMS_OTP")
      ]
      for (const method of methods) expect(yield* repo.insertUnique(mine.id, method)).toBe("inserted")
      for (const method of methods) {
        expect(yield* repo.findById(mine.id, method.id)).toEqual(Option.some(method))
        expect(yield* repo.findById(other.id, method.id)).toEqual(Option.none())
      }
      expect(yield* repo.findById(mine.id, WalletFixtures.authMethodId())).toEqual(Option.none())
    })
  )

  it.effect("refuses a second EMAIL_OTP or SMS_OTP credential on one account, not on another account or platform", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const email = WalletFixtures.otp(wallet, "EMAIL_OTP", 0)
      const sms = WalletFixtures.otp(wallet, "SMS_OTP", 1_000)
      expect(yield* repo.insertUnique(platform.id, email)).toBe("inserted")
      expect(yield* repo.insertUnique(platform.id, sms)).toBe("inserted")
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.otp(wallet, "EMAIL_OTP"))).toBe("duplicate")
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.otp(wallet, "SMS_OTP"))).toBe("duplicate")
      expect(yield* repo.listByAccount(platform.id, wallet)).toEqual([email, sms])

      expect(yield* repo.insertUnique(platform.id, WalletFixtures.otp(WalletFixtures.walletId()))).toBe("inserted")
      expect(yield* repo.insertUnique(other.id, WalletFixtures.otp(wallet))).toBe("inserted")

      // A plain insert breaking the rule fails and changes nothing, alone or among others.
      const refused = yield* Effect.either(repo.insert(platform.id, WalletFixtures.otp(wallet)))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      const passkey = WalletFixtures.passkey(wallet, { offsetMillis: 2_000 })
      const all = yield* Effect.either(repo.insertAll(platform.id, [passkey, WalletFixtures.otp(wallet, "SMS_OTP")]))
      expect(Either.isLeft(all) && all.left._tag).toBe("StoreFailure")
      expect(yield* repo.listByAccount(platform.id, wallet)).toEqual([email, sms])
    })
  )

  it.effect("registers a passkey credential id once per platform, whatever the account", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const first = WalletFixtures.passkey(WalletFixtures.walletId())
      const credentialId = first.credentialId ?? ""
      expect(yield* repo.insertUnique(platform.id, first)).toBe("inserted")
      const elsewhere = WalletFixtures.passkey(WalletFixtures.walletId(), { credentialId })
      expect(yield* repo.insertUnique(platform.id, elsewhere)).toBe("duplicate")
      expect(yield* repo.findById(platform.id, elsewhere.id)).toEqual(Option.none())
      expect(yield* repo.insertUnique(other.id, elsewhere)).toBe("inserted")
      // An account may hold several passkeys.
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.passkey(first.accountId))).toBe("inserted")
      expect(yield* repo.listByAccount(platform.id, first.accountId)).toHaveLength(2)
    })
  )

  it.effect("registers an OAuth identity (issuer, audience, subject) once per account", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const identity = { issuer: "https://issuer.example", audience: "app", subject: `sub-${wallet}` }
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.oauth(wallet, identity))).toBe("inserted")
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.oauth(wallet, identity))).toBe("duplicate")
      for (const differing of [
        { ...identity, issuer: "https://other.example" },
        { ...identity, audience: "other-app" },
        { ...identity, subject: "someone-else" }
      ]) {
        expect(yield* repo.insertUnique(platform.id, WalletFixtures.oauth(wallet, differing))).toBe("inserted")
      }
      expect(yield* repo.insertUnique(platform.id, WalletFixtures.oauth(WalletFixtures.walletId(), identity))).toBe(
        "inserted"
      )
    })
  )

  it.effect("lets exactly one of 16 concurrent inserts of one passkey in", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const credentialId = `cred-${wallet}`
      const outcomes = yield* concurrently(
        Array.from({ length: 16 }, () =>
          repo.insertUnique(platform.id, WalletFixtures.passkey(wallet, { credentialId }))
        )
      )
      expect(countOf(outcomes, "inserted")).toBe(1)
      expect(countOf(outcomes, "duplicate")).toBe(15)
      expect(yield* repo.listByAccount(platform.id, wallet)).toHaveLength(1)
    })
  )

  it.effect("deletes a credential unless it is its account's last, and tells a missing one apart", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const email = WalletFixtures.otp(wallet, "EMAIL_OTP", 0)
      const passkey = WalletFixtures.passkey(wallet, { offsetMillis: 1_000 })
      const neighbour = WalletFixtures.otp(WalletFixtures.walletId())
      yield* repo.insertAll(platform.id, [email, passkey, neighbour])

      expect(yield* repo.deleteUnlessLast(platform.id, wallet, neighbour.id)).toBe("missing")
      expect(yield* repo.deleteUnlessLast(other.id, wallet, email.id)).toBe("missing")
      expect(yield* repo.deleteUnlessLast(platform.id, wallet, WalletFixtures.authMethodId())).toBe("missing")
      expect(yield* repo.listByAccount(platform.id, wallet)).toEqual([email, passkey])

      expect(yield* repo.deleteUnlessLast(platform.id, wallet, email.id)).toBe("deleted")
      expect(yield* repo.findById(platform.id, email.id)).toEqual(Option.none())
      expect(yield* repo.deleteUnlessLast(platform.id, wallet, email.id)).toBe("missing")
      expect(yield* repo.deleteUnlessLast(platform.id, wallet, passkey.id)).toBe("last")
      expect(yield* repo.listByAccount(platform.id, wallet)).toEqual([passkey])
      expect(yield* repo.deleteUnlessLast(platform.id, neighbour.accountId, neighbour.id)).toBe("last")
    })
  )

  it.effect("leaves one credential when its account's last two are deleted concurrently in units of work", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      for (let round = 0; round < 4; round++) {
        const wallet = WalletFixtures.walletId()
        const pair = [WalletFixtures.otp(wallet), WalletFixtures.passkey(wallet, { offsetMillis: 1_000 })]
        yield* repo.insertAll(platform.id, pair)
        const outcomes = yield* concurrently(
          pair.map((method) => store.transaction(repo.deleteUnlessLast(platform.id, wallet, method.id)))
        )
        expect([...outcomes].sort()).toEqual(["deleted", "last"])
        const left = yield* repo.listByAccount(platform.id, wallet)
        expect(left.map((method) => method.id)).toEqual([pair[outcomes.indexOf("last")]?.id])
      }
    })
  )

  it.effect("keeps a credential a failed unit of work deleted", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const pair = [WalletFixtures.otp(wallet), WalletFixtures.passkey(wallet, { offsetMillis: 1_000 })] as const
      yield* repo.insertAll(platform.id, pair)
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(repo.deleteUnlessLast(platform.id, wallet, pair[0].id), Effect.fail("abandoned" as const))
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.listByAccount(platform.id, wallet)).toEqual([...pair])
    })
  )

  it.effect("advances a passkey's counter only from the value it still holds", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const wallet = WalletFixtures.walletId()
      const passkey = WalletFixtures.passkey(wallet, { counter: 5 })
      const email = WalletFixtures.otp(wallet)
      yield* repo.insertAll(platform.id, [passkey, email])

      expect(yield* repo.advancePasskeyCounter(platform.id, passkey.id, 4, 9, Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.advancePasskeyCounter(other.id, passkey.id, 5, 9, Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.advancePasskeyCounter(platform.id, email.id, 0, 9, Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.findById(platform.id, passkey.id)).toEqual(Option.some(passkey))

      expect(yield* repo.advancePasskeyCounter(platform.id, passkey.id, 5, 9, Fixtures.at(2_000))).toBe(true)
      const advanced = new AuthMethod.AuthMethod({
        ...passkey,
        passkey: { publicKey: passkey.passkey?.publicKey ?? "", counter: 9, transports: ["internal", "hybrid"] },
        updatedAt: Fixtures.at(2_000)
      })
      expect(yield* repo.findById(platform.id, passkey.id)).toEqual(Option.some(advanced))
      expect(yield* repo.advancePasskeyCounter(platform.id, passkey.id, 5, 10, Fixtures.at(3_000))).toBe(false)
    })
  )

  it.effect("lets exactly one of 64 concurrent assertions with one counter advance it", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const passkey = WalletFixtures.passkey(WalletFixtures.walletId(), { counter: 0 })
      yield* repo.insert(platform.id, passkey)
      const moved = yield* concurrently(
        Array.from({ length: 64 }, (_, index) =>
          repo.advancePasskeyCounter(platform.id, passkey.id, 0, index + 1, Fixtures.at(1_000))
        )
      )
      expect(countOf(moved, true)).toBe(1)
      const found = yield* repo.findById(platform.id, passkey.id)
      expect(Option.map(found, (method) => method.passkey?.counter)).toEqual(Option.some(moved.indexOf(true) + 1))
    })
  )

  it.effect("renames a credential of its own platform, setting updatedAt", () =>
    Effect.gen(function* () {
      const repo = yield* AuthMethodRepo.AuthMethodRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const email = WalletFixtures.otp(WalletFixtures.walletId())
      yield* repo.insert(platform.id, email)
      expect(yield* repo.rename(other.id, email.id, "eve@example.com", Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.rename(platform.id, WalletFixtures.authMethodId(), "x", Fixtures.at(1_000))).toBe(false)
      expect(yield* repo.findById(platform.id, email.id)).toEqual(Option.some(email))
      expect(yield* repo.rename(platform.id, email.id, "ádá+✓@example.com", Fixtures.at(2_000))).toBe(true)
      expect(yield* repo.findById(platform.id, email.id)).toEqual(
        Option.some(
          new AuthMethod.AuthMethod({ ...email, nickname: "ádá+✓@example.com", updatedAt: Fixtures.at(2_000) })
        )
      )
    })
  )
}
