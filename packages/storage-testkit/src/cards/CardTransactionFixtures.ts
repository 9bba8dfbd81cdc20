import { DateTime, Effect, Option } from "effect"
import {
  Card,
  CardRepo,
  CardTransaction,
  CardTransactionRepo,
  type Errors,
  Ledger,
  type Platform,
  SystemAccounts
} from "@payrail/core"
import { expect } from "vitest"
import { LedgerFixtures } from "../ledger/index.js"

const uuid = () => globalThis.crypto.randomUUID()

/**
 * An `ACTIVE` card of `customerId` funded by `fundingSource`, stored directly (as provisioning would leave it), so
 * card transaction tests need neither KYC nor the provisioning job. `overrides` change any field (a status, a limit).
 */
export const insertActiveCard = (
  platformId: Platform.PlatformId,
  customerId: string,
  fundingSource: string,
  overrides: Partial<ConstructorParameters<typeof Card.Card>[0]> = {}
): Effect.Effect<Card.Card, Errors.StoreFailure, CardRepo.CardRepo> =>
  Effect.gen(function* () {
    const now = yield* DateTime.now
    const id = uuid()
    const card = new Card.Card({
      id: Card.CardId.make(`Card:${id}`),
      customerId,
      status: "ACTIVE",
      brand: "VISA",
      form: "VIRTUAL",
      last4: "4242",
      expMonth: 12,
      expYear: 2029,
      fundingSource,
      currency: "USD",
      processorRef: `proc_${id}`,
      issuerRef: `iss_${id}`,
      platformCardId: id,
      createdAt: now,
      updatedAt: now,
      ...overrides
    })
    yield* (yield* CardRepo.CardRepo).insert({ platformId, card, version: 1, issuerSecret: "00".repeat(16) })
    return card
  })

/** Changes a stored card (freeze, close), as card management would. */
export const changeCard = (
  platformId: Platform.PlatformId,
  card: Card.Card,
  change: Partial<ConstructorParameters<typeof Card.Card>[0]>
): Effect.Effect<Card.Card, Errors.StoreFailure, CardRepo.CardRepo> =>
  Effect.gen(function* () {
    const repo = yield* CardRepo.CardRepo
    const stored = Option.getOrThrow(yield* repo.findById(platformId, card.id))
    const { fundingSource: _detached, ...rest } = stored.card
    const next = new Card.Card({ ...(change.status === "CLOSED" ? rest : stored.card), ...change })
    expect(yield* repo.update({ ...stored, card: next, version: stored.version + 1 }, stored.version)).toBe(true)
    return next
  })

/** The stored row of a card transaction (its hold included). */
export const stored = (
  platformId: Platform.PlatformId,
  id: CardTransaction.CardTransactionId
): Effect.Effect<CardTransaction.StoredCardTransaction, Errors.StoreFailure, CardTransactionRepo.CardTransactionRepo> =>
  Effect.map(
    Effect.flatMap(CardTransactionRepo.CardTransactionRepo, (rows) => rows.findById(platformId, id)),
    Option.getOrThrow
  )

/**
 * The ledger's invariants over the funding account and the platform's USD rail clearing account (the only accounts
 * card transactions and sandbox funding move): every currency sums to zero, balances equal their entries, the
 * funding account's available balance is never negative, and it equals `expectedAvailable` with `expectedPending`
 * reserved by holds.
 */
export const checkLedger = (
  platformId: Platform.PlatformId,
  fundingAccountId: string,
  expected: { readonly available: number; readonly pendingDebits: number }
): Effect.Effect<void, Ledger.InvalidPosting | Errors.StoreFailure, Ledger.Ledger> =>
  Effect.gen(function* () {
    const balances = yield* LedgerFixtures.checkInvariants(platformId, [
      fundingAccountId,
      SystemAccounts.accountId(platformId, "RAIL_CLEARING", "USD")
    ])
    const funding = balances.get(fundingAccountId)
    expect(funding).toBeDefined()
    if (funding === undefined) return
    expect({
      available: Number(Ledger.available(funding)),
      pendingDebits: Number(funding.pendingDebitsMinor)
    }).toEqual(expected)
  })
