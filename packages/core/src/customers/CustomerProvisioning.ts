import { Context, type Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Customer } from "./Customer.js"

/**
 * Opens what a new customer gets besides its own record: its internal accounts, their guarded ledger accounts and,
 * on platforms with the stablecoin, its embedded wallet's first credential. `Customers.create` calls it inside the
 * customer's unit of work, so a customer never exists without them. The accounts context implements it
 * (`AccountProvisioning.customerLayer`), so customers need not depend on accounts.
 */
export class CustomerProvisioning extends Context.Tag("@payrail/core/CustomerProvisioning")<
  CustomerProvisioning,
  {
    readonly provision: (
      platform: Platform.Platform,
      customer: Customer
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
  }
>() {}
