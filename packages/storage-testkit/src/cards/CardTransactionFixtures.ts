import { DateTime, Effect, Option } from "effect"
import {
  Card,
  CardRepo,
  CardTransaction,
  CardTransactionRepo,
  type Errors,
  InternalAccountRepo,
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

// Every USD internal account of the platform (customers' and its own), a page at a time.
const usdAccounts = (platformId: Platform.PlatformId) =>
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo.InternalAccountRepo
    const ids: Array<string> = []
    for (const owner of ["customers", "platform"] as const) {
      let after: Option.Option<{ readonly createdAt: DateTime.Utc; readonly id: string }> = Option.none()
      for (;;) {
        const page = yield* repo.list(platformId, { owner, currency: "USD" }, { limit: 100, after })
        ids.push(...page.data.map((account) => account.id))
        const last = page.data[page.data.length - 1]
        if (!page.hasMore || last === undefined) break
        after = Option.some({ createdAt: last.createdAt, id: last.id })
      }
    }
    return ids
  })

/**
 * The ledger's invariants over every USD account of the platform (its internal accounts and its system accounts):
 * every currency sums to zero, balances equal their entries, no internal account's available balance is negative;
 * and the funding account's available balance and pending debits (what holds reserve) are `expected`.
 */
export const checkLedger = (
  platformId: Platform.PlatformId,
  fundingAccountId: string,
  expected: { readonly available: number; readonly pendingDebits: number }
): Effect.Effect<
  void,
  Ledger.InvalidPosting | Errors.StoreFailure,
  Ledger.Ledger | InternalAccountRepo.InternalAccountRepo
> =>
  Effect.gen(function* () {
    const balances = yield* LedgerFixtures.checkInvariants(platformId, [
      ...(yield* usdAccounts(platformId)),
      ...SystemAccounts.kinds.map((kind) => SystemAccounts.accountId(platformId, kind, "USD"))
    ])
    const funding = balances.get(fundingAccountId)
    expect(funding).toBeDefined()
    if (funding === undefined) return
    expect({
      available: Number(Ledger.available(funding)),
      pendingDebits: Number(funding.pendingDebitsMinor)
    }).toEqual(expected)
  })
