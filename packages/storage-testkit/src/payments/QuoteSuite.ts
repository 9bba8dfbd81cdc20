import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { type Platform, Quote, QuoteRepo, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as PaymentFixtures from "./PaymentFixtures.js"

const firstPage = (limit = 100) => ({ limit, after: Option.none() })

// Every page of a quote list, `limit` rows at a time, with the invariants of each page checked.
const listed = (platformId: Platform.PlatformId, filter: QuoteRepo.QuoteFilter, limit = 100) =>
  Effect.gen(function* () {
    const repo = yield* QuoteRepo.QuoteRepo
    const pages = yield* PaymentFixtures.allPages((page) => repo.list(platformId, filter, page), limit)
    for (const page of pages) {
      expect(page).not.toHaveProperty("totalCount")
      expect(page.nextCursor !== undefined).toBe(page.hasMore)
      expect(page.data.length).toBeLessThanOrEqual(limit)
    }
    return pages.flatMap((page) => PaymentFixtures.idsOf(page.data))
  })

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

/**
 * Quotes: every field survives storage, a platform sees only its own quotes, `transition` is a compare-and-set that
 * exactly one of many racers wins, units of work take quotes with them, and lists filter and page by keyset.
 */
export const register = (it: Methods) => {
  it.effect("finds each quote as inserted, every field intact, in every source and destination shape", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const platform = yield* Fixtures.insertPlatform
      const quotes = [
        PaymentFixtures.quote(),
        PaymentFixtures.fullQuote({ offsetMillis: 1_234 }),
        PaymentFixtures.quote({
          source: { sourceType: "ACCOUNT", accountId: PaymentFixtures.accountId(), customerId: "Customer:x" },
          destination: { destinationType: "ACCOUNT", accountId: PaymentFixtures.accountId(), paymentRail: "ACH" }
        }),
        PaymentFixtures.fullQuote({
          source: { sourceType: "REALTIME_FUNDING", currency: "USDC" },
          destination: { destinationType: "UMA_ADDRESS", umaAddress: "$zoë@uma.example" }
        }),
        PaymentFixtures.quote({
          status: "PENDING_AUTHORIZATION",
          source: {
            sourceType: "REALTIME_FUNDING",
            currency: "BTC",
            customerId: "Customer:y",
            cryptoNetwork: "LIGHTNING"
          },
          destination: { destinationType: "UMA_ADDRESS", umaAddress: "$bob@uma.example", currency: "MXN" }
        })
      ]
      yield* PaymentFixtures.insertQuotes(platform.id, quotes)
      for (const quote of quotes) expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.some(quote))
      expect(yield* repo.findById(platform.id, PaymentFixtures.quoteId())).toEqual(Option.none())
    })
  )

  it.effect("never finds, lists or transitions a quote of another platform", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customerId = `Customer:${globalThis.crypto.randomUUID()}`
      const quote = PaymentFixtures.fullQuote({ customerId })
      yield* PaymentFixtures.insertQuotes(mine.id, [quote])
      expect(yield* repo.findById(other.id, quote.id)).toEqual(Option.none())
      expect(yield* repo.list(other.id, {}, firstPage())).toEqual({ data: [], hasMore: false })
      expect(yield* repo.list(other.id, { customerId, status: "PENDING" }, firstPage())).toEqual({
        data: [],
        hasMore: false
      })
      const processing = new Quote.Quote({ ...quote, status: "PROCESSING" })
      expect(yield* repo.transition(other.id, quote.id, "PENDING", processing)).toBe(false)
      expect(yield* repo.findById(mine.id, quote.id)).toEqual(Option.some(quote))
    })
  )

  it.effect("refuses a second insert of one id, keeping the first record", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const platform = yield* Fixtures.insertPlatform
      const quote = PaymentFixtures.quote()
      yield* repo.insert(platform.id, quote)
      const again = new Quote.Quote({ ...quote, status: "COMPLETED" })
      const refused = yield* Effect.either(repo.insert(platform.id, again))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.some(quote))
    })
  )

  it.effect("transitions only from the current status, storing the next quote whole", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const platform = yield* Fixtures.insertPlatform
      const quote = PaymentFixtures.quote()
      yield* repo.insert(platform.id, quote)
      const processing = new Quote.Quote({
        ...PaymentFixtures.fullQuote(),
        id: quote.id,
        createdAt: quote.createdAt,
        status: "PROCESSING",
        updatedAt: Fixtures.at(5_000)
      })
      expect(yield* repo.transition(platform.id, quote.id, "PENDING_AUTHORIZATION", processing)).toBe(false)
      expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.some(quote))
      expect(yield* repo.transition(platform.id, quote.id, "PENDING", processing)).toBe(true)
      expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.some(processing))
      // A second request that read the quote while it was PENDING does nothing.
      const expired = new Quote.Quote({ ...quote, status: "EXPIRED" })
      expect(yield* repo.transition(platform.id, quote.id, "PENDING", expired)).toBe(false)
      expect(yield* repo.transition(platform.id, PaymentFixtures.quoteId(), "PENDING", expired)).toBe(false)
      expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.some(processing))
      // The list filters follow the stored status and customer.
      expect(yield* listed(platform.id, { status: "PROCESSING", customerId: processing.customerId })).toEqual([
        quote.id
      ])
      expect(yield* listed(platform.id, { status: "PENDING" })).toEqual([])
    })
  )

  it.effect("lets exactly one of 20 concurrent transitions from one status apply", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const platform = yield* Fixtures.insertPlatform
      const quote = PaymentFixtures.quote()
      yield* repo.insert(platform.id, quote)
      const candidates = Array.from(
        { length: 20 },
        (_, index) =>
          new Quote.Quote({
            ...quote,
            status: index % 2 === 0 ? "PROCESSING" : "EXPIRED",
            updatedAt: Fixtures.at(1_000 + index)
          })
      )
      const applied = yield* concurrently(
        candidates.map((next) => repo.transition(platform.id, quote.id, "PENDING", next))
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const winner = candidates[applied.indexOf(true)]
      expect(yield* repo.findById(platform.id, quote.id)).toEqual(Option.fromNullable(winner))
    })
  )

  it.effect("keeps the inserts and transitions of a unit of work only when it commits", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const existing = PaymentFixtures.quote()
      yield* repo.insert(platform.id, existing)
      const fresh = PaymentFixtures.fullQuote({ offsetMillis: 1_000 })
      const processing = new Quote.Quote({ ...existing, status: "PROCESSING" })
      const work = Effect.gen(function* () {
        yield* repo.insert(platform.id, fresh)
        expect(yield* repo.transition(platform.id, existing.id, "PENDING", processing)).toBe(true)
        expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.some(fresh))
        expect(yield* listed(platform.id, {})).toEqual([fresh.id, existing.id])
      })
      const failed = yield* Effect.either(store.transaction(Effect.zipRight(work, Effect.fail("abandoned" as const))))
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.none())
      expect(yield* repo.findById(platform.id, existing.id)).toEqual(Option.some(existing))
      expect(yield* listed(platform.id, {})).toEqual([existing.id])

      yield* store.transaction(work)
      expect(yield* repo.findById(platform.id, fresh.id)).toEqual(Option.some(fresh))
      expect(yield* repo.findById(platform.id, existing.id)).toEqual(Option.some(processing))
    })
  )

  it.effect("filters by customer, status and creation time (bounds inclusive), newest first", () =>
    Effect.gen(function* () {
      const platform = yield* Fixtures.insertPlatform
      const ada = `Customer:${globalThis.crypto.randomUUID()}`
      const alan = `Customer:${globalThis.crypto.randomUUID()}`
      const q1 = PaymentFixtures.quote({ customerId: ada, offsetMillis: 1_000 })
      const q2 = PaymentFixtures.quote({ customerId: alan, offsetMillis: 2_000, status: "COMPLETED" })
      const q3 = PaymentFixtures.quote({ offsetMillis: 3_000 })
      const q4 = PaymentFixtures.quote({ customerId: ada, offsetMillis: 4_000, status: "COMPLETED" })
      const q5 = PaymentFixtures.quote({ customerId: ada, offsetMillis: 4_000, status: "EXPIRED" })
      yield* PaymentFixtures.insertQuotes(platform.id, [q3, q1, q5, q2, q4])
      const ids = (...quotes: ReadonlyArray<Quote.Quote>) => PaymentFixtures.idsOf(PaymentFixtures.sorted(quotes))

      expect(yield* listed(platform.id, {})).toEqual(ids(q1, q2, q3, q4, q5))
      expect(yield* listed(platform.id, { customerId: ada })).toEqual(ids(q1, q4, q5))
      expect(yield* listed(platform.id, { status: "COMPLETED" })).toEqual(ids(q2, q4))
      expect(yield* listed(platform.id, { status: "PENDING_AUTHORIZATION" })).toEqual([])
      expect(yield* listed(platform.id, { customerId: ada, status: "COMPLETED" })).toEqual(ids(q4))
      expect(yield* listed(platform.id, { createdAfter: Fixtures.at(2_000) })).toEqual(ids(q2, q3, q4, q5))
      expect(yield* listed(platform.id, { createdBefore: Fixtures.at(3_000) })).toEqual(ids(q1, q2, q3))
      expect(
        yield* listed(platform.id, { createdAfter: Fixtures.at(2_000), createdBefore: Fixtures.at(3_000) })
      ).toEqual(ids(q2, q3))
      expect(
        yield* listed(platform.id, { createdAfter: Fixtures.at(4_000), createdBefore: Fixtures.at(4_000) }, 1)
      ).toEqual(ids(q4, q5))
      expect(yield* listed(platform.id, { createdAfter: Fixtures.at(4_001) })).toEqual([])
      expect(yield* listed(platform.id, { customerId: ada, createdBefore: Fixtures.at(3_999) })).toEqual(ids(q1))
      // No stored text holds NUL (PostgreSQL's cannot): such a value matches nothing, and fails nothing.
      expect(yield* listed(platform.id, { customerId: `${ada}\u0000` })).toEqual([])
    })
  )

  it.effect("pages newest first through many quotes: none twice, none lost, new quotes shift nothing", () =>
    Effect.gen(function* () {
      const repo = yield* QuoteRepo.QuoteRepo
      const platform = yield* Fixtures.insertPlatform
      const customerId = `Customer:${globalThis.crypto.randomUUID()}`
      // Groups of three share an instant, so the id orders them.
      const quotes = Array.from({ length: 40 }, (_, index) =>
        PaymentFixtures.quote({ customerId, offsetMillis: Math.floor(index / 3) * 1_000 })
      )
      yield* PaymentFixtures.insertQuotes(platform.id, quotes)
      const pages = yield* PaymentFixtures.allPages(
        (page) => repo.list(platform.id, { customerId }, page),
        7,
        (pageNumber) =>
          PaymentFixtures.insertQuotes(platform.id, [
            PaymentFixtures.quote({ customerId, offsetMillis: 100_000 + pageNumber })
          ])
      )
      expect(pages.map((page) => page.data.length)).toEqual([7, 7, 7, 7, 7, 5])
      expect(pages.flatMap((page) => PaymentFixtures.idsOf(page.data))).toEqual(
        PaymentFixtures.idsOf(PaymentFixtures.sorted(quotes))
      )
      expect(yield* repo.list(platform.id, { customerId }, firstPage(46))).toMatchObject({ hasMore: false })
    })
  )
}
