import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Invitation, InvitationRepo, UnitOfWork, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const hex = () => globalThis.crypto.randomUUID().replaceAll("-", "")

/** A pending invitation of `platformId` created at `Fixtures.at(0)`, expiring at `expiresAtMillis` if given. */
export const invitation = (platformId: Platform.PlatformId, expiresAtMillis?: number): Invitation.Invitation =>
  new Invitation.Invitation({
    code: hex(),
    platformId,
    environment: "SANDBOX",
    status: "PENDING",
    url: "https://uma.example.com/i/x",
    inviterUma: "$inviter@uma.example.com",
    firstName: "Jane",
    amountToSend: { amount: 12_550, currency: "USD" },
    ...(expiresAtMillis === undefined ? {} : { expiresAt: Fixtures.at(expiresAtMillis) }),
    createdAt: Fixtures.at(0),
    updatedAt: Fixtures.at(0)
  })

/**
 * UMA invitations: found by code as inserted, a code inserted once; a claim applies once (exactly one of 20
 * concurrent claims), only while pending and before expiry; a cancel only by the inviting platform, only while
 * pending; a claim rolled back with its unit of work leaves the invitation pending.
 */
export const register = (it: Methods) => {
  it.effect("finds an invitation by code as inserted; a code is inserted once; an unknown code is none", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const platform = yield* Fixtures.insertPlatform
      const created = invitation(platform.id, 60_000)
      yield* repo.insert(created)
      expect(yield* repo.findByCode(created.code)).toEqual(Option.some(created))
      expect(yield* repo.findByCode(hex())).toEqual(Option.none())
      const again = yield* Effect.either(repo.insert(created))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
    })
  )

  it.effect("claims a pending invitation once, recording the invitee, the claiming platform and the time", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const platform = yield* Fixtures.insertPlatform
      const claimer = yield* Fixtures.insertPlatform
      const created = invitation(platform.id)
      yield* repo.insert(created)
      const input = { code: created.code, inviteeUma: "$bob@b.example.com", claimedByPlatformId: claimer.id }
      const claimed = yield* repo.claim({ ...input, at: Fixtures.at(1_000) })
      const expected = new Invitation.Invitation({
        ...created,
        status: "CLAIMED",
        inviteeUma: "$bob@b.example.com",
        claimedByPlatformId: claimer.id,
        claimedAt: Fixtures.at(1_000),
        updatedAt: Fixtures.at(1_000)
      })
      expect(claimed).toEqual(Option.some(expected))
      expect(yield* repo.findByCode(created.code)).toEqual(Option.some(expected))
      expect(yield* repo.claim({ ...input, at: Fixtures.at(2_000) })).toEqual(Option.none())
      expect(yield* repo.cancel({ code: created.code, platformId: platform.id, at: Fixtures.at(2_000) })).toEqual(
        Option.none()
      )
      expect(yield* repo.claim({ ...input, code: hex(), at: Fixtures.at(2_000) })).toEqual(Option.none())
    })
  )

  it.effect("claims or cancels only before expiry: at or after it nothing changes", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const platform = yield* Fixtures.insertPlatform
      const created = invitation(platform.id, 5_000)
      yield* repo.insert(created)
      const claim = { code: created.code, inviteeUma: "$bob@b.example.com", claimedByPlatformId: platform.id }
      expect(yield* repo.claim({ ...claim, at: Fixtures.at(5_000) })).toEqual(Option.none())
      expect(yield* repo.cancel({ code: created.code, platformId: platform.id, at: Fixtures.at(6_000) })).toEqual(
        Option.none()
      )
      expect(yield* repo.findByCode(created.code)).toEqual(Option.some(created))
      const claimed = yield* repo.claim({ ...claim, at: Fixtures.at(4_999) })
      expect(Option.map(claimed, (row) => row.status)).toEqual(Option.some("CLAIMED"))
    })
  )

  it.effect("cancels only for the inviting platform; a cancelled invitation cannot be claimed", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const created = invitation(platform.id)
      yield* repo.insert(created)
      expect(yield* repo.cancel({ code: created.code, platformId: other.id, at: Fixtures.at(1_000) })).toEqual(
        Option.none()
      )
      const cancelled = yield* repo.cancel({ code: created.code, platformId: platform.id, at: Fixtures.at(1_000) })
      const expected = new Invitation.Invitation({
        ...created,
        status: "CANCELLED",
        cancelledAt: Fixtures.at(1_000),
        updatedAt: Fixtures.at(1_000)
      })
      expect(cancelled).toEqual(Option.some(expected))
      const claim = { code: created.code, inviteeUma: "$bob@b.example.com", claimedByPlatformId: platform.id }
      expect(yield* repo.claim({ ...claim, at: Fixtures.at(2_000) })).toEqual(Option.none())
      expect(yield* repo.findByCode(created.code)).toEqual(Option.some(expected))
    })
  )

  it.effect("lets exactly one of 20 concurrent claims of an invitation win", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const created = invitation(platform.id)
      yield* repo.insert(created)
      const claims = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) =>
          store.transaction(
            repo.claim({
              code: created.code,
              inviteeUma: `$claimer${index}@b.example.com`,
              claimedByPlatformId: platform.id,
              at: Fixtures.at(1_000)
            })
          )
        ),
        { concurrency: "unbounded" }
      )
      const winners = claims.filter(Option.isSome)
      expect(winners).toHaveLength(1)
      expect(yield* repo.findByCode(created.code)).toEqual(winners[0])
    })
  )

  it.effect("leaves an invitation pending when the unit of work that claimed it rolls back", () =>
    Effect.gen(function* () {
      const repo = yield* InvitationRepo.InvitationRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const created = invitation(platform.id)
      yield* repo.insert(created)
      const claim = { code: created.code, inviteeUma: "$bob@b.example.com", claimedByPlatformId: platform.id }
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.claim({ ...claim, at: Fixtures.at(1_000) }), Effect.fail("undo")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.findByCode(created.code)).toEqual(Option.some(created))
    })
  )
}
