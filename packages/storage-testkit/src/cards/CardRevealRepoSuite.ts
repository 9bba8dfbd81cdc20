import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Card, CardReveal, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as CardFixtures from "./CardFixtures.js"

const cardId = () => Card.CardId.make(`Card:${globalThis.crypto.randomUUID()}`)

/**
 * Card reveal links: inserted once, found used or not, consumed once (by exactly one of concurrent consumers), never
 * at or after `expiresAt`, and a consumption rolled back with its unit of work leaves the link usable.
 */
export const register = (it: Methods) => {
  it.effect("finds a reveal as inserted; a token hash is inserted once; an unknown one is none", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(platform.id, cardId())
      yield* repo.insert(reveal)
      expect(yield* repo.find(reveal.tokenHash)).toEqual(Option.some(reveal))
      expect(yield* repo.find(CardFixtures.reveal(platform.id, cardId()).tokenHash)).toEqual(Option.none())
      const again = yield* Effect.either(repo.insert({ ...reveal, cardId: cardId() }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(Option.map(yield* repo.find(reveal.tokenHash), (found) => found.cardId)).toEqual(
        Option.some(reveal.cardId)
      )
    })
  )

  it.effect("consumes a reveal once, before its expiry only; a used one is still found", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(platform.id, cardId())
      yield* repo.insert(reveal)
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(299_999))).toEqual(Option.some(reveal))
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(1_000))).toEqual(Option.none())
      expect(yield* repo.find(reveal.tokenHash)).toEqual(Option.some(reveal))
      const late = CardFixtures.reveal(platform.id, cardId())
      yield* repo.insert(late)
      expect(yield* repo.consume(late.tokenHash, Fixtures.at(300_000))).toEqual(Option.none())
      expect(yield* repo.consume(late.tokenHash, Fixtures.at(900_000))).toEqual(Option.none())
      expect(yield* repo.consume("f".repeat(64), Fixtures.at(0))).toEqual(Option.none())
    })
  )

  it.effect("gives a reveal to exactly one of 20 concurrent consumers", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(platform.id, cardId())
      yield* repo.insert(reveal)
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => store.transaction(repo.consume(reveal.tokenHash, Fixtures.at(1_000)))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Option.isSome)).toHaveLength(1)
    })
  )

  it.effect("leaves a reveal usable when the unit of work that consumed it rolls back", () =>
    Effect.gen(function* () {
      const repo = yield* CardReveal.CardRevealRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const reveal = CardFixtures.reveal(platform.id, cardId())
      yield* repo.insert(reveal)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.consume(reveal.tokenHash, Fixtures.at(1_000)), Effect.fail("undo")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.consume(reveal.tokenHash, Fixtures.at(2_000))).toEqual(Option.some(reveal))
    })
  )
}
