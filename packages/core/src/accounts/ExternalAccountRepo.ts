import { Context, type Effect, type Option } from "effect"
import type { ExternalAccountExists } from "./AccountErrors.js"
import type { ExternalAccount, ExternalAccountId } from "./ExternalAccount.js"
import type { ExternalAccountStatus } from "./ExternalAccountStatus.js"
import type { Customer } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

export { ExternalAccountExists } from "./AccountErrors.js"

/** Filters of external account lists. `owner` selects customer-owned or platform-owned accounts. */
export interface ExternalAccountFilter {
  readonly owner: "customers" | "platform"
  readonly customerId?: Customer.CustomerId | undefined
  readonly currency?: string | undefined
}

/**
 * Storage of external accounts, scoped to one platform; deleted accounts are never found nor listed.
 * - `insert` is unique on (owner, account type, identifier): a second live account fails `ExternalAccountExists`.
 *   When the account is the customer's `defaultUmaDepositAccount`, the previous default loses the flag in the same
 *   step, serialised per customer, so concurrent inserts never leave two defaults.
 * - `transition` is a compare-and-set on the status.
 */
export class ExternalAccountRepo extends Context.Tag("@payrail/core/ExternalAccountRepo")<
  ExternalAccountRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      account: ExternalAccount,
      identifier: string
    ) => Effect.Effect<void, ExternalAccountExists | StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: ExternalAccountId
    ) => Effect.Effect<Option.Option<ExternalAccount>, StoreFailure.StoreFailure>
    /** Newest-first keyset page with the total matching count, read without scanning the matching rows. */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: ExternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<ExternalAccount>, StoreFailure.StoreFailure>
    /** Sets `next` if the account is still in `from`; returns whether it applied. */
    readonly transition: (
      platformId: Platform.PlatformId,
      id: ExternalAccountId,
      from: ExternalAccountStatus,
      next: ExternalAccount
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Marks the account deleted; returns whether a live account was deleted. */
    readonly delete: (
      platformId: Platform.PlatformId,
      id: ExternalAccountId
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
