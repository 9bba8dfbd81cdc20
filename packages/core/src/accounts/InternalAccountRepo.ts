import { Context, type DateTime, type Effect, type Option } from "effect"
import type { InternalAccount, InternalAccountId, InternalAccountType } from "./InternalAccount.js"
import type { Customer } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** Filters of internal account lists. `owner` selects customer-owned, platform-owned or both. */
export interface InternalAccountFilter {
  readonly owner: "customers" | "platform"
  readonly customerId?: Customer.CustomerId | undefined
  readonly type?: InternalAccountType | undefined
  readonly currency?: string | undefined
}

/** Storage of internal account records, scoped to one platform. Balances are the ledger's. */
export class InternalAccountRepo extends Context.Tag("@payrail/core/InternalAccountRepo")<
  InternalAccountRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      account: InternalAccount
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * Inserts every account atomically (one statement on SQL adapters; none for an empty list): what `insert` of
     * each in turn would do, all or nothing.
     */
    readonly insertAll: (
      platformId: Platform.PlatformId,
      accounts: ReadonlyArray<InternalAccount>
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: InternalAccountId
    ) => Effect.Effect<Option.Option<InternalAccount>, StoreFailure.StoreFailure>
    /** A newest-first keyset page of the platform's accounts matching `filter`, with the total count. */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: InternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<InternalAccount>, StoreFailure.StoreFailure>
    /**
     * Sets an `EMBEDDED_WALLET`'s `privateEnabled` and `updatedAt` in one guarded write (only an embedded wallet of
     * this platform changes): the updated record, or none when the platform has no such wallet. Joins the caller's
     * unit of work.
     */
    readonly setPrivateEnabled: (
      platformId: Platform.PlatformId,
      id: InternalAccountId,
      privateEnabled: boolean,
      at: DateTime.Utc
    ) => Effect.Effect<Option.Option<InternalAccount>, StoreFailure.StoreFailure>
  }
>() {}
