import { expect } from "vitest"
import { Effect } from "effect"
import { Ledger, SystemAccounts } from "@payrail/core"
import type { PaymentApp, PaymentPlatform } from "./PaymentApp.js"

/** Which accounts `expectBalancedBooks` looks at besides the ones named, and what it asks of them. */
export interface BooksCheck {
  /** The currencies whose system accounts (every kind) are checked too; each must have been opened already. */
  readonly systemCurrencies?: ReadonlyArray<string>
  /** Whether a reservation may still be open (a payment in flight): by default none may. */
  readonly reservationsAllowed?: boolean
}

/**
 * The platform's books balance: its posted entries sum to zero in every currency, and each of `accounts` and of the
 * system accounts of `systemCurrencies` (by default USD, EUR and MXN) has the balance its entries give it, with no
 * pending debit or credit left unless `reservationsAllowed`.
 */
export const expectBalancedBooks = async (
  app: PaymentApp,
  platform: PaymentPlatform,
  accounts: ReadonlyArray<string>,
  { reservationsAllowed = false, systemCurrencies = ["USD", "EUR", "MXN"] }: BooksCheck = {}
): Promise<void> => {
  const platformId = platform.platform.id
  for (const total of (await platform.postedTotals()).values()) expect(total).toBe(0n)
  const system = systemCurrencies.flatMap((currency) =>
    SystemAccounts.kinds.map((kind) => SystemAccounts.accountId(platformId, kind, currency))
  )
  for (const accountId of [...accounts, ...system]) {
    const [balance, fromEntries] = await app.run(
      Effect.flatMap(Ledger.Ledger, (ledger) =>
        Effect.all([ledger.balance(platformId, accountId), ledger.reconcile(platformId, accountId)])
      )
    )
    expect(balance).toEqual(fromEntries)
    if (!reservationsAllowed) {
      expect([accountId, balance.pendingDebitsMinor, balance.pendingCreditsMinor]).toEqual([accountId, 0n, 0n])
    }
  }
}
