import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { CardReveal, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as CardFixtures from "./CardFixtures.js"

/**
 * Card reveal links: found as inserted without being used up, a token inserted once, consumed once (by exactly one
 * of 20 concurrent consumes), never at or after its expiry, never when unknown; a consumption rolled back with its
 * unit of work leaves the link usable.
 */
export const register = (it: Methods) => {
  it.effect("finds a reveal as inserted without consuming it; a token is inserted once; unknown is none", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(CardFixtures.card(platform.id), 1_500)
      yield* repo.insert(reveal)
      expect(yield* repo.find(reveal.tokenHash)).toEqual(Option.some(reveal))
      expect(yield* repo.find(reveal.tokenHash)).toEqual(Option.some(reveal))
      expect(yield* repo.find(CardFixtures.hash())).toEqual(Option.none())
      expect(yield* repo.consume(CardFixtures.hash(), Fixtures.at(2_000))).toEqual(Option.none())

      const again = yield* Effect.either(repo.insert({ ...reveal, expiresAt: Fixtures.at(10_000_000) }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(2_000))).toEqual(Option.some(reveal))
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(2_001))).toEqual(Option.none())
      expect(yield* repo.find(reveal.tokenHash)).toEqual(Option.some(reveal))
    })
  )

  it.effect("consumes a reveal only before its expiry: at or after it, nothing, and it stays unused", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const platform = yield* Fixtures.insertPlatform
      const card = CardFixtures.card(platform.id)
      const atExpiry = CardFixtures.reveal(card)
      const afterExpiry = CardFixtures.reveal(card)
      const lastMoment = CardFixtures.reveal(card)
      for (const reveal of [atExpiry, afterExpiry, lastMoment]) yield* repo.insert(reveal)
      expect(yield* repo.consume(atExpiry.tokenHash, atExpiry.expiresAt)).toEqual(Option.none())
      expect(yield* repo.consume(afterExpiry.tokenHash, DateTime.add(afterExpiry.expiresAt, { hours: 1 }))).toEqual(
        Option.none()
      )
      expect(yield* repo.find(atExpiry.tokenHash)).toEqual(Option.some(atExpiry))
      expect(yield* repo.consume(lastMoment.tokenHash, DateTime.subtract(lastMoment.expiresAt, { millis: 1 }))).toEqual(
        Option.some(lastMoment)
      )
    })
  )

  it.effect("lets exactly one of 20 concurrent consumes of a reveal win", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(CardFixtures.card(platform.id))
      yield* repo.insert(reveal)
      const consumed = yield* Effect.all(
        Array.from({ length: 20 }, () => repo.consume(reveal.tokenHash, Fixtures.at(1_000))),
        { concurrency: "unbounded" }
      )
      expect(consumed.filter(Option.isSome)).toEqual([Option.some(reveal)])
    })
  )

  it.effect("leaves a reveal usable when the unit of work that consumed it rolls back", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(CardFixtures.card(platform.id), 1_500)
      yield* repo.insert(reveal)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.consume(reveal.tokenHash, Fixtures.at(1_000)), Effect.fail("undo")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(1_200))).toEqual(Option.some(reveal))
    })
  )
}
