import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type Errors, Ledger, type Platform, SystemAccounts } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

/** A fresh idempotency key. */
export const key = (): string => `key-${uuid()}`

/** A guarded account spec with a fresh `InternalAccount:<uuid>` id. */
export const guarded = (platformId: Platform.PlatformId, currency = "USD"): Ledger.LedgerAccount =>
  SystemAccounts.guardedAccount(platformId, `InternalAccount:${uuid()}`, currency)

/** A platform with its system accounts in USD and EUR and `usd` + `eur` guarded accounts, all opened. */
export interface Book {
  readonly platformId: Platform.PlatformId
  readonly usd: ReadonlyArray<string>
  readonly eur: ReadonlyArray<string>
  /** Every account of the book: guarded ones first, then the system accounts. */
  readonly accounts: ReadonlyArray<string>
}

/** The platform's system account id. */
export const system = (platformId: Platform.PlatformId, kind: SystemAccounts.Kind, currency = "USD"): string =>
  SystemAccounts.accountId(platformId, kind, currency)

/** Inserts a platform and opens its system accounts and `usd`/`eur` fresh guarded accounts. */
export const openBook = (options: { readonly usd: number; readonly eur?: number }) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger.Ledger
    const { id: platformId } = yield* Fixtures.insertPlatform
    const systems = SystemAccounts.accountsFor(platformId, ["USD", "EUR"])
    const usd = Array.from({ length: options.usd }, () => guarded(platformId, "USD"))
    const eur = Array.from({ length: options.eur ?? 0 }, () => guarded(platformId, "EUR"))
    yield* Effect.forEach([...usd, ...eur, ...systems], ledger.openAccount, { discard: true })
    const ids = (specs: ReadonlyArray<Ledger.LedgerAccount>) => specs.map((spec) => spec.id)
    return { platformId, usd: ids(usd), eur: ids(eur), accounts: ids([...usd, ...eur, ...systems]) } satisfies Book
  })

/** A posting with one debit and one credit of `amountMinor`. */
export const movement = (
  platformId: Platform.PlatformId,
  from: string,
  to: string,
  amountMinor: bigint,
  options: { readonly status?: "posted" | "pending"; readonly currency?: string; readonly idempotencyKey?: string } = {}
): Ledger.Posting => ({
  platformId,
  idempotencyKey: options.idempotencyKey ?? key(),
  status: options.status ?? "posted",
  description: `${from} -> ${to}`,
  entries: [
    { accountId: from, currency: options.currency ?? "USD", amountMinor: -amountMinor },
    { accountId: to, currency: options.currency ?? "USD", amountMinor }
  ]
})

/** Money entering through the rail: rail clearing is debited, the account credited. */
export const deposit = (platformId: Platform.PlatformId, accountId: string, amountMinor: bigint, currency = "USD") =>
  movement(platformId, system(platformId, "RAIL_CLEARING", currency), accountId, amountMinor, { currency })

/** Posts a deposit of `amountMinor` to the account. */
export const fund = (platformId: Platform.PlatformId, accountId: string, amountMinor: bigint, currency = "USD") =>
  Effect.flatMap(Ledger.Ledger, (ledger) => ledger.post(deposit(platformId, accountId, amountMinor, currency)))

/** The account's balance from the ledger. */
export const balanceOf = (platformId: Platform.PlatformId, accountId: string) =>
  Effect.flatMap(Ledger.Ledger, (ledger) => ledger.balance(platformId, accountId))

/** `[posted, pendingDebits, pendingCredits]` of the account, for compact assertions. */
export const amounts = (platformId: Platform.PlatformId, accountId: string) =>
  Effect.map(balanceOf(platformId, accountId), (balance) => [
    balance.postedMinor,
    balance.pendingDebitsMinor,
    balance.pendingCreditsMinor
  ])

/**
 * Asserts the invariants of DESIGN §5 over the platform's accounts: posted entries sum to zero per currency, and
 * so do all entries (posted plus pending); each account's balance equals the sum of its entries (`reconcile`); a
 * guarded account's available balance is never negative. Returns the balances by account id.
 */
export const checkInvariants = (
  platformId: Platform.PlatformId,
  accountIds: ReadonlyArray<string>
): Effect.Effect<ReadonlyMap<string, Ledger.Balance>, Ledger.InvalidPosting | Errors.StoreFailure, Ledger.Ledger> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger.Ledger
    for (const [currency, total] of yield* ledger.postedTotals(platformId)) {
      expect([currency, total]).toEqual([currency, 0n])
    }
    const pairs = yield* Effect.forEach(
      accountIds,
      (accountId) => Effect.all([ledger.balance(platformId, accountId), ledger.reconcile(platformId, accountId)]),
      { concurrency: 8 }
    )
    const net = new Map<string, bigint>()
    for (const [balance, fromEntries] of pairs) {
      expect(balance).toEqual(fromEntries)
      const change = balance.postedMinor + balance.pendingCreditsMinor - balance.pendingDebitsMinor
      net.set(balance.currency, (net.get(balance.currency) ?? 0n) + change)
    }
    for (const [currency, total] of net) expect([currency, total]).toEqual([currency, 0n])
    for (const [balance] of pairs) {
      if (!SystemAccounts.isSystemAccountId(balance.accountId)) {
        expect(Ledger.available(balance) >= 0n, `available of ${balance.accountId}`).toBe(true)
      }
    }
    return new Map(pairs.map(([balance]) => [balance.accountId, balance] as const))
  })
