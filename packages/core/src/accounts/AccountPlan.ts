import type { InternalAccountType } from "./InternalAccount.js"
import { Currency } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** One internal account a new customer or platform gets. */
export interface PlannedAccount {
  readonly type: InternalAccountType
  readonly currency: string
}

const typeFor = (currencyCode: string, owner: "customer" | "platform"): InternalAccountType =>
  currencyCode === Currency.platformStablecoinCode && owner === "customer"
    ? "EMBEDDED_WALLET"
    : currencyCode === "BTC" || currencyCode === Currency.platformStablecoinCode
      ? "INTERNAL_CRYPTO"
      : "INTERNAL_FIAT"

/**
 * The internal accounts the platform configuration calls for: one per supported currency. For a customer, the
 * platform stablecoin is held in a self-custody `EMBEDDED_WALLET`; other crypto in `INTERNAL_CRYPTO`, fiat in
 * `INTERNAL_FIAT`. The platform's own accounts (which receive its fees) are never embedded wallets.
 */
export const plan = (platform: Platform.Platform, owner: "customer" | "platform"): ReadonlyArray<PlannedAccount> =>
  platform.config.supportedCurrencies.map(({ currencyCode }) => ({
    type: typeFor(currencyCode, owner),
    currency: currencyCode
  }))
