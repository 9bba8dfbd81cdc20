import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Card, CardRepo, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as CardFixtures from "./CardFixtures.js"
import { ordered, pagedIds } from "./KeysetPages.js"

const firstPage = { limit: 100, after: Option.none() }

type Filter = Omit<Card.CardFilter, "sortOrder">

// Every page of a card list in both orders, `limit` rows at a time: the ids in each order.
const listed = (platformId: Platform.PlatformId, filter: Filter, limit: number) =>
  Effect.flatMap(CardRepo.CardRepo, (repo) =>
    Effect.all({
      desc: pagedIds((page) => repo.list(platformId, { ...filter, sortOrder: "desc" }, page), limit),
      asc: pagedIds((page) => repo.list(platformId, { ...filter, sortOrder: "asc" }, page), limit)
    })
  )

const expected = (cards: ReadonlyArray<Card.StoredCard>, keep: (card: Card.Card) => boolean) => {
  const rows = cards.map((stored) => stored.card).filter(keep)
  return { desc: ordered(rows, "desc"), asc: ordered(rows, "asc") }
}

/**
 * Cards: every field round-trips (optional ones absent and present), scoped to their platform, an id inserted
 * once, replaced only at the version read (one of 20 racers wins), listed by every filter in both orders in keyset
 * pages that neither repeat nor miss a row across equal creation times.
 */
export const register = (it: Methods) => {
  it.effect("finds a card as inserted, every field, only within its platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const full = CardFixtures.card(mine.id, { offsetMillis: 1_234 })
      const bare = CardFixtures.card(mine.id, { full: false })
      const closed = CardFixtures.card(mine.id, {
        full: false,
        overrides: { status: "CLOSED", stateReason: "ISSUER_REJECTED", brand: "MASTERCARD" }
      })
      for (const stored of [full, bare, closed]) yield* repo.insert(stored)
      for (const stored of [full, bare, closed]) {
        expect(yield* repo.findById(mine.id, stored.card.id)).toEqual(Option.some(stored))
        expect(yield* repo.findById(other.id, stored.card.id)).toEqual(Option.none())
      }
      expect(yield* repo.findById(mine.id, CardFixtures.cardId())).toEqual(Option.none())

      const again = yield* Effect.either(
        repo.insert({ ...full, card: new Card.Card({ ...full.card, last4: "0000" }), issuerSecret: "other" })
      )
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(mine.id, full.card.id)).toEqual(Option.some(full))
    })
  )

  it.effect("updates a card only at the version it read, with its list keys; one of 20 racers wins", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const stored = CardFixtures.card(platform.id)
      yield* repo.insert(stored)
      const funding = CardFixtures.accountId()
      const frozen: Card.StoredCard = {
        ...stored,
        version: 2,
        card: new Card.Card({ ...stored.card, status: "FROZEN", fundingSource: funding, updatedAt: Fixtures.at(9) })
      }
      expect(yield* repo.update({ ...frozen, platformId: other.id }, 1)).toBe(false)
      expect(yield* repo.update(frozen, 2)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.card.id)).toEqual(Option.some(stored))
      expect(yield* repo.update(frozen, 1)).toBe(true)
      expect(yield* repo.update({ ...frozen, card: new Card.Card({ ...frozen.card, last4: "9999" }) }, 1)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.card.id)).toEqual(Option.some(frozen))
      const page = (filter: Filter) =>
        Effect.map(repo.list(platform.id, { ...filter, sortOrder: "desc" }, firstPage), (found) =>
          found.data.map((card) => card.id)
        )
      expect(yield* page({ status: "FROZEN", accountId: funding })).toEqual([stored.card.id])
      expect(yield* page({ status: "ACTIVE" })).toEqual([])
      expect(yield* page({ accountId: stored.card.fundingSource })).toEqual([])
      expect(yield* repo.update(CardFixtures.card(platform.id), 1)).toBe(false)

      const applied = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) =>
          repo.update(
            { ...frozen, version: 3, card: new Card.Card({ ...frozen.card, maxSpendPerTransaction: index }) },
            2
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, stored.card.id))
      expect(found.version).toBe(3)
      expect(found.card.maxSpendPerTransaction).toBe(applied.indexOf(true))
    })
  )

  it.effect("lists a platform's cards by every filter in both orders, in keyset pages across equal times", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customer = CardFixtures.customerId()
      const funding = CardFixtures.accountId()
      // Triples share a creation instant, so the id decides their order.
      const cards = Array.from({ length: 10 }, (_, index) =>
        CardFixtures.card(platform.id, {
          offsetMillis: Math.floor(index / 3) * 1_000,
          full: index !== 4,
          overrides: {
            ...(index % 2 === 0 ? { customerId: customer } : {}),
            ...(index % 3 === 0 ? { fundingSource: funding } : {}),
            ...(index === 7 ? { platformCardId: "shared-card-id" } : {}),
            status: index % 4 === 1 ? "FROZEN" : "ACTIVE"
          }
        })
      )
      for (const stored of cards) yield* repo.insert(stored)
      yield* repo.insert(
        CardFixtures.card(other.id, {
          overrides: { customerId: customer, fundingSource: funding, platformCardId: "shared-card-id" }
        })
      )

      for (const limit of [1, 2, 3, 100]) {
        expect(yield* listed(platform.id, {}, limit)).toEqual(expected(cards, () => true))
      }
      const filters: ReadonlyArray<readonly [Filter, (card: Card.Card) => boolean]> = [
        [{ customerId: customer }, (card) => card.customerId === customer],
        [{ accountId: funding }, (card) => card.fundingSource === funding],
        [{ platformCardId: "shared-card-id" }, (card) => card.platformCardId === "shared-card-id"],
        [{ status: "FROZEN" }, (card) => card.status === "FROZEN"],
        [{ status: "CLOSED" }, () => false],
        [
          { customerId: customer, status: "ACTIVE" },
          (card) => card.customerId === customer && card.status === "ACTIVE"
        ],
        [{ customerId: CardFixtures.customerId() }, () => false],
        [{ customerId: "\u0000" }, () => false],
        [{ accountId: `${funding}\u0000` }, () => false],
        [{ platformCardId: "\u0000" }, () => false]
      ]
      for (const [filter, keep] of filters) {
        for (const limit of [1, 2, 100])
          expect(yield* listed(platform.id, filter, limit)).toEqual(expected(cards, keep))
      }
    })
  )
}
