import { expect } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import { Ledger } from "@payrail/core"
import * as LedgerFixtures from "./LedgerFixtures.js"
import type { Methods } from "../internal/Methods.js"

const amount = fc.bigInt({ min: 1n, max: 400n })

/** One step of a random history. Account numbers 0-2 are USD accounts, 3-4 EUR accounts. */
const operation = fc.oneof(
  fc.record({ kind: fc.constant("deposit" as const), to: fc.nat(4), amount }),
  fc.record({
    kind: fc.constant("transfer" as const),
    from: fc.nat(4),
    to: fc.nat(4),
    amount,
    feeMinor: fc.bigInt({ min: 0n, max: 20n }),
    pending: fc.boolean()
  }),
  fc.record({ kind: fc.constant("payout" as const), from: fc.nat(4), amount, pending: fc.boolean() }),
  fc.record({ kind: fc.constant("exchange" as const), from: fc.nat(2), to: fc.nat(1), amount, received: amount }),
  fc.record({ kind: fc.constant("confirm" as const), nth: fc.nat(40) }),
  fc.record({ kind: fc.constant("release" as const), nth: fc.nat(40) }),
  fc.record({ kind: fc.constant("replay" as const), nth: fc.nat(40), changed: fc.boolean() })
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

interface Totals {
  posted: bigint
  pendingDebits: bigint
  pendingCredits: bigint
}

interface Applied {
  readonly posting: Ledger.Posting
  readonly postingId: Ledger.PostingId
  status: "posted" | "pending" | "released"
}

type Outcome =
  | { readonly kind: "applied" }
  | { readonly kind: "replayed"; readonly postingId: Ledger.PostingId }
  | { readonly kind: "IdempotencyKeyReused" }
  | { readonly kind: "InsufficientFunds"; readonly accountId: string }

/** An independent model of the ledger: what every adapter must agree with, step by step. */
class Model {
  readonly totals = new Map<string, Totals>()
  readonly byKey = new Map<string, Applied>()
  readonly attempted: Array<Ledger.Posting> = []
  readonly pending: Array<Applied> = []

  constructor(
    readonly accounts: ReadonlyArray<string>,
    readonly guarded: ReadonlySet<string>
  ) {
    for (const id of accounts) this.totals.set(id, { posted: 0n, pendingDebits: 0n, pendingCredits: 0n })
  }

  private of(accountId: string): Totals {
    const totals = this.totals.get(accountId)
    if (totals === undefined) throw new Error(`unknown account ${accountId}`)
    return totals
  }

  predict(posting: Ledger.Posting): Outcome {
    const previous = this.byKey.get(posting.idempotencyKey)
    if (previous !== undefined) {
      return Ledger.fingerprint(previous.posting) === Ledger.fingerprint(posting)
        ? { kind: "replayed", postingId: previous.postingId }
        : { kind: "IdempotencyKeyReused" }
    }
    const debits = new Map<string, bigint>()
    for (const { accountId, amountMinor } of posting.entries) {
      if (amountMinor < 0n) debits.set(accountId, (debits.get(accountId) ?? 0n) - amountMinor)
    }
    for (const accountId of Array.from(debits.keys()).sort()) {
      const totals = this.of(accountId)
      if (this.guarded.has(accountId) && totals.posted - totals.pendingDebits < (debits.get(accountId) ?? 0n)) {
        return { kind: "InsufficientFunds", accountId }
      }
    }
    return { kind: "applied" }
  }

  apply(posting: Ledger.Posting, postingId: Ledger.PostingId): void {
    const applied: Applied = { posting, postingId, status: posting.status }
    this.byKey.set(posting.idempotencyKey, applied)
    if (posting.status === "pending") this.pending.push(applied)
    for (const { accountId, amountMinor } of posting.entries) {
      const totals = this.of(accountId)
      if (posting.status === "posted") totals.posted += amountMinor
      else if (amountMinor < 0n) totals.pendingDebits -= amountMinor
      else totals.pendingCredits += amountMinor
    }
  }

  /** The balances `post` must answer: the posting's guarded accounts as the model now has them, in id order. */
  guardedBalances(posting: Ledger.Posting): ReadonlyArray<Ledger.Balance> {
    const currencies = new Map(posting.entries.map((entry) => [entry.accountId, entry.currency] as const))
    return Array.from(currencies.keys())
      .filter((accountId) => this.guarded.has(accountId))
      .sort()
      .map((accountId) => {
        const totals = this.of(accountId)
        return {
          accountId,
          currency: currencies.get(accountId) ?? "",
          postedMinor: totals.posted,
          pendingDebitsMinor: totals.pendingDebits,
          pendingCreditsMinor: totals.pendingCredits
        }
      })
  }

  settle(applied: Applied, to: "posted" | "released"): void {
    applied.status = to
    for (const { accountId, amountMinor } of applied.posting.entries) {
      const totals = this.of(accountId)
      if (amountMinor < 0n) totals.pendingDebits += amountMinor
      else totals.pendingCredits -= amountMinor
      if (to === "posted") totals.posted += amountMinor
    }
  }
}

const postingFor = (book: LedgerFixtures.Book, step: Operation, model: Model): Ledger.Posting | undefined => {
  const { platformId } = book
  const guardedAt = (index: number) => (index < 3 ? book.usd[index] : book.eur[index - 3]) ?? ""
  const currencyAt = (index: number) => (index < 3 ? "USD" : "EUR")
  switch (step.kind) {
    case "deposit":
      return LedgerFixtures.deposit(platformId, guardedAt(step.to), step.amount, currencyAt(step.to))
    case "transfer": {
      const currency = currencyAt(step.from)
      const to = currency === "USD" ? step.to % 3 : 3 + (step.to % 2)
      const base = LedgerFixtures.movement(platformId, guardedAt(step.from), guardedAt(to), step.amount, {
        currency,
        status: step.pending ? "pending" : "posted"
      })
      if (step.feeMinor === 0n) return base
      const fee = [
        { accountId: guardedAt(step.from), currency, amountMinor: -step.feeMinor },
        { accountId: LedgerFixtures.system(platformId, "FEES", currency), currency, amountMinor: step.feeMinor }
      ]
      return { ...base, entries: [...base.entries, ...fee] }
    }
    case "payout": {
      const currency = currencyAt(step.from)
      const clearing = LedgerFixtures.system(platformId, "RAIL_CLEARING", currency)
      return LedgerFixtures.movement(platformId, guardedAt(step.from), clearing, step.amount, {
        currency,
        status: step.pending ? "pending" : "posted"
      })
    }
    case "exchange":
      return {
        platformId,
        idempotencyKey: LedgerFixtures.key(),
        status: "posted",
        description: "exchange",
        entries: [
          { accountId: guardedAt(step.from), currency: "USD", amountMinor: -step.amount },
          { accountId: LedgerFixtures.system(platformId, "FX", "USD"), currency: "USD", amountMinor: step.amount },
          { accountId: LedgerFixtures.system(platformId, "FX", "EUR"), currency: "EUR", amountMinor: -step.received },
          { accountId: guardedAt(3 + step.to), currency: "EUR", amountMinor: step.received }
        ]
      }
    case "replay": {
      const earlier = model.attempted[step.nth % Math.max(model.attempted.length, 1)]
      if (earlier === undefined) return undefined
      return step.changed ? { ...earlier, description: `${earlier.description} (changed)` } : earlier
    }
    default:
      return undefined
  }
}

// Runs one step on the adapter and on the model, asserting that both reach the same outcome.
const step = (ledger: LedgerService, book: LedgerFixtures.Book, model: Model, operation: Operation) =>
  Effect.gen(function* () {
    if (operation.kind === "confirm" || operation.kind === "release") {
      const target = model.pending[operation.nth % Math.max(model.pending.length, 1)]
      if (target === undefined) return
      const settle = operation.kind === "confirm" ? ledger.confirm : ledger.release
      const result = yield* Effect.either(settle(book.platformId, target.postingId))
      if (target.status === "pending") {
        expect(result).toEqual(Either.right(undefined))
        model.settle(target, operation.kind === "confirm" ? "posted" : "released")
      } else {
        expect(Either.isLeft(result) && result.left._tag).toBe("ReservationSettled")
      }
      return
    }
    const posting = postingFor(book, operation, model)
    if (posting === undefined) return
    model.attempted.push(posting)
    const expected = model.predict(posting)
    const result = yield* Effect.either(ledger.post(posting))
    if (expected.kind === "applied") {
      expect(Either.isRight(result) && result.right.applied).toBe(true)
      if (Either.isRight(result)) {
        model.apply(posting, result.right.postingId)
        expect(result.right.balances).toEqual(model.guardedBalances(posting))
      }
    } else if (expected.kind === "replayed") {
      expect(result).toEqual(
        Either.right({ postingId: expected.postingId, applied: false, balances: model.guardedBalances(posting) })
      )
    } else if (expected.kind === "InsufficientFunds") {
      expect(Either.isLeft(result) && result.left).toMatchObject({
        _tag: "InsufficientFunds",
        details: { accountId: expected.accountId }
      })
    } else {
      expect(Either.isLeft(result) && result.left._tag).toBe(expected.kind)
    }
  })

type LedgerService = Effect.Effect.Success<typeof Ledger.Ledger>

/** The ledger invariants of DESIGN §5 over random histories, checked after every step against a model. */
export const register = (it: Methods) => {
  it.effect.prop(
    "keeps every invariant after every step of random postings, reservations, settlements and replays",
    { operations: fc.array(operation, { minLength: 1, maxLength: 20 }) },
    ({ operations }) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const book = yield* LedgerFixtures.openBook({ usd: 3, eur: 2 })
        const model = new Model(book.accounts, new Set([...book.usd, ...book.eur]))
        for (const operation of operations) {
          yield* step(ledger, book, model, operation)
          const balances = yield* LedgerFixtures.checkInvariants(book.platformId, book.accounts)
          for (const [accountId, totals] of model.totals) {
            const balance = balances.get(accountId)
            expect([
              accountId,
              balance?.postedMinor,
              balance?.pendingDebitsMinor,
              balance?.pendingCreditsMinor
            ]).toEqual([accountId, totals.posted, totals.pendingDebits, totals.pendingCredits])
          }
        }
      }),
    { timeout: 240_000, fastCheck: { numRuns: 25 } }
  )
}
