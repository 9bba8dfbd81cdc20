import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Card, CardRepo, Page, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import { PaymentFixtures } from "../payments/index.js"
import * as CardFixtures from "./CardFixtures.js"

// Every page of a card list, `limit` rows at a time (a cursor exactly when more follow): the ids in order.
const listed = (platformId: Platform.PlatformId, filter: Card.CardFilter, limit: number) =>
  Effect.gen(function* () {
    const repo = yield* CardRepo.CardRepo
    const pages = yield* PaymentFixtures.allPages((page) => repo.list(platformId, filter, page), limit)
    for (const page of pages) {
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
    }
    return pages.flatMap((page) => page.data.map((card) => card.id))
  })

const ordered = (cards: ReadonlyArray<Card.StoredCard>, sortOrder: "asc" | "desc") => {
  const newestFirst = [...cards].sort((a, b) => Page.compareNewestFirst(a.card, b.card)).map((stored) => stored.card.id)
  return sortOrder === "desc" ? newestFirst : newestFirst.reverse()
}

/**
 * Cards: scoped to their platform, stored with their issuer secret and version, listed by every filter of
 * `GET /cards` in keyset pages in both orders, and replaced by compare-and-set (of concurrent updates at one version
 * exactly one applies).
 */
export const register = (it: Methods) => {
  it.effect("finds a card as inserted, with its secret, only within its platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const full = CardFixtures.card(mine.id, { offsetMillis: 1_234 })
      const bare = CardFixtures.card(mine.id, { bare: true, status: "CLOSED" })
      yield* repo.insert(full)
      yield* repo.insert(bare)
      expect(yield* repo.findById(mine.id, full.card.id)).toEqual(Option.some(full))
      expect(yield* repo.findById(mine.id, bare.card.id)).toEqual(Option.some(bare))
      expect(yield* repo.findById(other.id, full.card.id)).toEqual(Option.none())
      const again = yield* Effect.either(repo.insert({ ...full, issuerSecret: "0".repeat(32) }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(Option.map(yield* repo.findById(mine.id, full.card.id), (stored) => stored.issuerSecret)).toEqual(
        Option.some(full.issuerSecret)
      )
    })
  )

  it.effect("lists a platform's cards by every filter, in keyset pages, newest or oldest first", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customer = CardFixtures.customerId()
      const account = CardFixtures.accountId()
      const statuses = ["ACTIVE", "FROZEN", "PROCESSING", "CLOSED"] as const
      // Pairs share a creation instant, so the id decides their order.
      const cards = Array.from({ length: 9 }, (_, index) =>
        CardFixtures.card(platform.id, {
          offsetMillis: Math.floor(index / 2) * 1_000,
          status: statuses[index % 4]!,
          ...(index % 3 === 0 ? { customerId: customer } : {}),
          ...(index % 2 === 0 ? { fundingSource: account } : {})
        })
      )
      for (const card of cards) yield* repo.insert(card)
      yield* repo.insert(CardFixtures.card(other.id, { customerId: customer, fundingSource: account }))
      const filters: ReadonlyArray<
        readonly [Omit<Card.CardFilter, "sortOrder">, (stored: Card.StoredCard) => boolean]
      > = [
        [{}, () => true],
        [{ customerId: customer }, (stored) => stored.card.customerId === customer],
        [{ accountId: account }, (stored) => stored.card.fundingSource === account],
        [{ status: "FROZEN" }, (stored) => stored.card.status === "FROZEN"],
        [{ platformCardId: cards[4]!.card.platformCardId }, (stored) => stored === cards[4]],
        [
          { customerId: customer, status: "ACTIVE" },
          (stored) => stored.card.customerId === customer && stored.card.status === "ACTIVE"
        ]
      ]
      for (const [filter, keep] of filters) {
        for (const sortOrder of ["desc", "asc"] as const) {
          for (const limit of [1, 2, 100]) {
            expect(yield* listed(platform.id, { ...filter, sortOrder }, limit)).toEqual(
              ordered(cards.filter(keep), sortOrder)
            )
          }
        }
      }
    })
  )

  it.effect("updates by compare-and-set: the new record at the expected version, never at a stale one", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = CardFixtures.card(platform.id)
      yield* repo.insert(stored)
      const { fundingSource: _detached, ...rest } = stored.card
      const closed: Card.StoredCard = {
        ...stored,
        version: 2,
        card: new Card.Card({
          ...rest,
          status: "CLOSED",
          stateReason: "CLOSED_BY_PLATFORM",
          updatedAt: Fixtures.at(60_000)
        })
      }
      expect(yield* repo.update(closed, 1)).toBe(true)
      expect(yield* repo.findById(platform.id, stored.card.id)).toEqual(Option.some(closed))
      expect(yield* repo.update({ ...stored, version: 2 }, 1)).toBe(false)
      expect(yield* repo.findById(platform.id, stored.card.id)).toEqual(Option.some(closed))
      // Closing detached the funding source: the account filter no longer finds it; the status filter does.
      expect(yield* listed(platform.id, { accountId: stored.card.fundingSource, sortOrder: "desc" }, 10)).toEqual([])
      expect(yield* listed(platform.id, { status: "CLOSED", sortOrder: "desc" }, 10)).toEqual([stored.card.id])
      // Another platform's id is not this platform's card.
      const other = yield* Fixtures.insertPlatform
      expect(yield* repo.update({ ...closed, platformId: other.id, version: 3 }, 2)).toBe(false)
    })
  )

  it.effect("applies exactly one of concurrent updates at one version", () =>
    Effect.gen(function* () {
      const repo = yield* CardRepo.CardRepo
      const platform = yield* Fixtures.insertPlatform
      const stored = CardFixtures.card(platform.id)
      yield* repo.insert(stored)
      const limits = Array.from({ length: 12 }, (_, index) => index + 1)
      const applied = yield* Effect.all(
        limits.map((limit) =>
          repo.update(
            {
              ...stored,
              version: 2,
              card: new Card.Card({ ...stored.card, maxSpendPerTransaction: limit })
            },
            1
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(applied.filter((won) => won)).toHaveLength(1)
      const winner = limits[applied.indexOf(true)]
      const now = Option.getOrThrow(yield* repo.findById(platform.id, stored.card.id))
      expect(now.version).toBe(2)
      expect(now.card.maxSpendPerTransaction).toBe(winner)
    })
  )
}
