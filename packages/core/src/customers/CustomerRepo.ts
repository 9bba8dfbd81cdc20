import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Customer, CustomerId } from "./Customer.js"
import type { CustomerType } from "./CustomerFields.js"
import { type PlatformCustomerIdTaken, type UmaAddressTaken } from "./CustomerErrors.js"
import type { CountryCode } from "@payrail/account-formats"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** Filters of the customer list; bounds on timestamps are inclusive. */
export interface CustomerFilter {
  readonly platformCustomerId?: string | undefined
  readonly customerType?: CustomerType | undefined
  readonly region?: CountryCode.CountryCode | undefined
  readonly email?: string | undefined
  /** The UMA address, exactly (addresses are stored in lowercase). */
  readonly umaAddress?: string | undefined
  /** Customers whose `currencies` hold this currency code. */
  readonly currency?: string | undefined
  readonly createdAfter?: DateTime.Utc | undefined
  readonly createdBefore?: DateTime.Utc | undefined
  readonly updatedAfter?: DateTime.Utc | undefined
  readonly updatedBefore?: DateTime.Utc | undefined
  /** Deleted customers are left out unless this is `true`. */
  readonly isIncludingDeleted?: boolean | undefined
}

/** A stored customer with its write-only fields and its version for guarded updates. */
export interface StoredCustomer {
  readonly customer: Customer
  /** The tax identifier: write-only, never returned by the API. */
  readonly identifier: Option.Option<string>
  /** Increases by one with every update; `update` only applies on the version it was read at. */
  readonly version: number
}

/** A customer to insert with its write-only identifier; it is stored at version 1. */
export interface NewCustomer {
  readonly customer: Customer
  readonly identifier: Option.Option<string>
}

/**
 * Storage of customers, always scoped to one platform: a customer of another platform is never found.
 * `platformCustomerId` is unique among the platform's live (not deleted) customers, enforced by the store, so
 * concurrent inserts with one value have exactly one winner and every other fails with `PlatformCustomerIdTaken`;
 * once its holder is deleted (an `update` storing `isDeleted: true`) the value can be taken again. The same holds
 * for `umaAddress` (`UmaAddressTaken`), compared exactly as stored (lowercase).
 */
export class CustomerRepo extends Context.Tag("@payrail/core/CustomerRepo")<
  CustomerRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      customer: Customer,
      identifier: Option.Option<string>
    ) => Effect.Effect<void, PlatformCustomerIdTaken | UmaAddressTaken | StoreFailure.StoreFailure>
    /**
     * Inserts every customer as `insert` would, all or nothing, counters included, at a constant number of statements
     * (one multi-row statement per 1,000 customers on SQL adapters; none for an empty list). A `platformCustomerId`
     * held by a live customer, or repeated among the live customers given, fails `PlatformCustomerIdTaken` naming it
     * (an UMA address, `UmaAddressTaken`) and inserts none of them.
     */
    readonly insertMany: (
      platformId: Platform.PlatformId,
      customers: ReadonlyArray<NewCustomer>
    ) => Effect.Effect<void, PlatformCustomerIdTaken | UmaAddressTaken | StoreFailure.StoreFailure>
    /** Which of `platformCustomerIds` live customers of the platform hold (one query, whatever their number). */
    readonly takenPlatformCustomerIds: (
      platformId: Platform.PlatformId,
      platformCustomerIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlySet<string>, StoreFailure.StoreFailure>
    /**
     * Which of `umaAddresses` live customers of the platform carry, exactly as `findByUmaAddress` matches them (one
     * query, whatever their number).
     */
    readonly takenUmaAddresses: (
      platformId: Platform.PlatformId,
      umaAddresses: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlySet<string>, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: CustomerId
    ) => Effect.Effect<Option.Option<StoredCustomer>, StoreFailure.StoreFailure>
    /**
     * The live (not deleted) customer whose `umaAddress` is exactly `umaAddress` (stored lowercase): at most one, as
     * addresses are unique among live customers. A customer of another platform is never found.
     */
    readonly findByUmaAddress: (
      platformId: Platform.PlatformId,
      umaAddress: string
    ) => Effect.Effect<Option.Option<StoredCustomer>, StoreFailure.StoreFailure>
    /**
     * Replaces the customer if it is still at `expectedVersion` (compare-and-set). Returns whether it applied;
     * `false` means a concurrent update won and the caller should re-read.
     */
    readonly update: (
      platformId: Platform.PlatformId,
      next: StoredCustomer,
      expectedVersion: number
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * A newest-first page of the platform's customers matching `filter` (live ones only unless
     * `isIncludingDeleted`), with the total matching count.
     */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: CustomerFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Customer>, StoreFailure.StoreFailure>
  }
>() {}
