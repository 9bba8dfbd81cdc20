import { Effect, Layer } from "effect"
import { CustomerProvisioning } from "../customers/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import { PlatformProvisioning } from "../platforms/index.js"
import { InternalAccounts } from "./InternalAccounts.js"

/** What creating a customer opens: its internal accounts (and wallet credential), through `InternalAccounts`. */
export const customerLayer: Layer.Layer<CustomerProvisioning.CustomerProvisioning, never, InternalAccounts> =
  Layer.effect(
    CustomerProvisioning.CustomerProvisioning,
    Effect.map(InternalAccounts, (accounts) => ({
      provision: (platform, customer) => Effect.asVoid(accounts.openForCustomer(platform, customer)),
      provisionMany: (platform, customers) => Effect.asVoid(accounts.openForCustomers(platform, customers))
    }))
  )

/** What creating a platform opens: its system ledger accounts per currency, then its own internal accounts. */
export const platformLayer: Layer.Layer<
  PlatformProvisioning.PlatformProvisioning,
  never,
  InternalAccounts | Ledger.Ledger
> = Layer.effect(
  PlatformProvisioning.PlatformProvisioning,
  Effect.gen(function* () {
    const accounts = yield* InternalAccounts
    const ledger = yield* Ledger.Ledger
    return {
      provision: (platform) =>
        Effect.gen(function* () {
          const currencies = platform.config.supportedCurrencies.map((currency) => currency.currencyCode)
          // System accounts come from the registry's currencies, so a refusal is a programming error, not input.
          yield* ledger
            .openAccounts(SystemAccounts.accountsFor(platform.id, currencies))
            .pipe(Effect.catchTag("InvalidPosting", Effect.die))
          yield* accounts.openForPlatform(platform)
        })
    }
  })
)
