import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { Ledger } from "@payrail/core"
import * as LedgerFixtures from "./LedgerFixtures.js"
import type { Methods } from "../internal/Methods.js"

const { amounts, checkInvariants, fund, movement, openBook, system } = LedgerFixtures

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects.map(Effect.either), { concurrency: "unbounded" })

const tagsOf = <A, E extends { readonly _tag: string }>(results: ReadonlyArray<Either.Either<A, E>>) =>
  results.filter(Either.isLeft).map((result) => result.left._tag)

/** Fibers contending for the same funds, reservations and keys: the conditional debit is a storage primitive. */
export const register = (it: Methods) => {
  it.effect(
    "lets exactly 10 of 50 concurrent debits through against an account funded for 10; the balance ends at zero",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const book = yield* openBook({ usd: 2 })
        const [alice = "", bob = ""] = book.usd
        const { platformId } = book
        yield* fund(platformId, alice, 1_000n)
        const results = yield* concurrently(
          Array.from({ length: 50 }, () => ledger.post(movement(platformId, alice, bob, 100n)))
        )
        expect(results.filter(Either.isRight)).toHaveLength(10)
        expect(tagsOf(results)).toEqual(Array.from({ length: 40 }, () => "InsufficientFunds"))
        expect(yield* amounts(platformId, alice)).toEqual([0n, 0n, 0n])
        expect(yield* amounts(platformId, bob)).toEqual([1_000n, 0n, 0n])
        yield* checkInvariants(platformId, book.accounts)
      })
  )

  it.effect(
    "never over-reserves under racing reservations and posted debits, and settles each reservation exactly once",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const book = yield* openBook({ usd: 2 })
        const [alice = "", bob = ""] = book.usd
        const { platformId } = book
        yield* fund(platformId, alice, 1_000n)
        const reserve = () => ledger.post(movement(platformId, alice, bob, 100n, { status: "pending" }))
        const debit = () => ledger.post(movement(platformId, alice, system(platformId, "RAIL_CLEARING"), 100n))
        const results = yield* concurrently(
          Array.from({ length: 30 }, (_, index) => (index % 3 === 0 ? debit() : reserve()))
        )
        expect(results.filter(Either.isRight)).toHaveLength(10)
        expect(tagsOf(results)).toEqual(Array.from({ length: 20 }, () => "InsufficientFunds"))
        const debited = results.filter((result, index) => index % 3 === 0 && Either.isRight(result)).length
        const reservations = results.flatMap((result, index) =>
          index % 3 !== 0 && Either.isRight(result) ? [result.right.postingId] : []
        )
        expect(yield* amounts(platformId, alice)).toEqual([
          1_000n - 100n * BigInt(debited),
          100n * BigInt(reservations.length),
          0n
        ])
        yield* checkInvariants(platformId, book.accounts)

        // Commit and release race for every reservation: exactly one of each pair wins.
        const settled = yield* concurrently(
          reservations.flatMap((postingId) => [
            Effect.as(ledger.confirm(platformId, postingId), "committed" as const),
            Effect.as(ledger.release(platformId, postingId), "released" as const)
          ])
        )
        const committed = settled.filter((result) => Either.isRight(result) && result.right === "committed").length
        expect(settled.filter(Either.isRight)).toHaveLength(reservations.length)
        expect(tagsOf(settled)).toEqual(reservations.map(() => "ReservationSettled"))
        const spent = 100n * BigInt(debited + committed)
        expect(yield* amounts(platformId, alice)).toEqual([1_000n - spent, 0n, 0n])
        expect(yield* amounts(platformId, bob)).toEqual([100n * BigInt(committed), 0n, 0n])
        yield* checkInvariants(platformId, book.accounts)
      })
  )

  it.effect("applies exactly one of 20 concurrent postings with one idempotency key; the others replay it", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      yield* fund(platformId, alice, 1_000n)
      const posting = movement(platformId, alice, bob, 70n, { status: "pending" })
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => ledger.post(posting)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result.applied)).toHaveLength(1)
      expect(new Set(results.map((result) => result.postingId)).size).toBe(1)
      expect(yield* amounts(platformId, alice)).toEqual([1_000n, 70n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("answers each of 20 concurrent deposits into one account with the balance that deposit left", () =>
    Effect.gen(function* () {
      const book = yield* openBook({ usd: 1 })
      const [account = ""] = book.usd
      const { platformId } = book
      const results = yield* concurrently(Array.from({ length: 20 }, () => fund(platformId, account, 10n)))
      // Read in the step that changed the row, so no two deposits see the same balance and every one is seen.
      const posted = results.map((result) =>
        Either.isRight(result) ? result.right.balances.map((balance) => balance.postedMinor) : []
      )
      expect(posted.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
        Array.from({ length: 20 }, (_, index) => BigInt(index + 1) * 10n)
      )
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("completes transfers racing in both directions between two accounts without deadlock or loss", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      yield* fund(platformId, alice, 500n)
      yield* fund(platformId, bob, 500n)
      const results = yield* concurrently(
        Array.from({ length: 40 }, (_, index) =>
          ledger.post(index % 2 === 0 ? movement(platformId, alice, bob, 10n) : movement(platformId, bob, alice, 10n))
        )
      )
      expect(tagsOf(results)).toEqual([])
      expect(yield* amounts(platformId, alice)).toEqual([500n, 0n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([500n, 0n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("posts concurrently from many accounts through one system account, all applied and balanced", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 20 })
      const { platformId } = book
      const clearing = system(platformId, "RAIL_CLEARING")
      yield* Effect.forEach(book.usd, (accountId) => fund(platformId, accountId, 50n), { concurrency: "unbounded" })
      const results = yield* concurrently(
        book.usd.flatMap((accountId) => [
          ledger.post(movement(platformId, accountId, clearing, 20n)),
          ledger.post(movement(platformId, accountId, clearing, 20n, { status: "pending" }))
        ])
      )
      expect(tagsOf(results)).toEqual([])
      expect(yield* amounts(platformId, clearing)).toEqual([-1_000n + 400n, 0n, 400n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )
}
