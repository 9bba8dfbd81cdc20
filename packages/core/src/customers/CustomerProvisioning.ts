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
    /**
     * Provisions every customer as `provision` would, at a constant number of statements whatever their number
     * (`Customers.createMany` and bulk imports): all or nothing, in the caller's unit of work.
     */
    readonly provisionMany: (
      platform: Platform.Platform,
      customers: ReadonlyArray<Customer>
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
  }
>() {}
