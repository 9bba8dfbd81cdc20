import { Context, type Effect, type Option } from "effect"
import type { CustomerId } from "./Customer.js"
import type { StoreFailure } from "./Errors.js"
import type { InternalAccount, InternalAccountId, InternalAccountType } from "./InternalAccount.js"
import type { Page, PageRequest } from "./Page.js"
import type { PlatformId } from "./Platform.js"

/** Filters of internal account lists. `owner` selects customer-owned, platform-owned or both. */
export interface InternalAccountFilter {
  readonly owner: "customers" | "platform"
  readonly customerId?: CustomerId | undefined
  readonly type?: InternalAccountType | undefined
  readonly currency?: string | undefined
}

/** Storage of internal account records, scoped to one platform. Balances are the ledger's. */
export class InternalAccountRepo extends Context.Tag("@payrail/core/InternalAccountRepo")<
  InternalAccountRepo,
  {
    readonly insert: (platformId: PlatformId, account: InternalAccount) => Effect.Effect<void, StoreFailure>
    readonly findById: (
      platformId: PlatformId,
      id: InternalAccountId
    ) => Effect.Effect<Option.Option<InternalAccount>, StoreFailure>
    /** A newest-first keyset page of the platform's accounts matching `filter`, with the total count. */
    readonly list: (
      platformId: PlatformId,
      filter: InternalAccountFilter,
      page: PageRequest
    ) => Effect.Effect<Page<InternalAccount>, StoreFailure>
  }
>() {}
