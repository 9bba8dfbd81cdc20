import { Context, type Effect, type Option, Schema } from "effect"
import type { CustomerId } from "./Customer.js"
import type { StoreFailure } from "./Errors.js"
import type { ExternalAccount, ExternalAccountId } from "./ExternalAccount.js"
import type { ExternalAccountStatus } from "./ExternalAccountStatus.js"
import type { Page, PageRequest } from "./Page.js"
import type { PlatformId } from "./Platform.js"

/** The owner already has an external account with this account type and identifier. Code `CONFLICT` (409). */
export class ExternalAccountExists extends Schema.TaggedError<ExternalAccountExists>()("ExternalAccountExists", {
  code: Schema.Literal("CONFLICT"),
  reason: Schema.String
}) {}

/** Filters of external account lists. `owner` selects customer-owned or platform-owned accounts. */
export interface ExternalAccountFilter {
  readonly owner: "customers" | "platform"
  readonly customerId?: CustomerId | undefined
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
      platformId: PlatformId,
      account: ExternalAccount,
      identifier: string
    ) => Effect.Effect<void, ExternalAccountExists | StoreFailure>
    readonly findById: (
      platformId: PlatformId,
      id: ExternalAccountId
    ) => Effect.Effect<Option.Option<ExternalAccount>, StoreFailure>
    /** Newest-first keyset page with the total matching count, read without scanning the matching rows. */
    readonly list: (
      platformId: PlatformId,
      filter: ExternalAccountFilter,
      page: PageRequest
    ) => Effect.Effect<Page<ExternalAccount>, StoreFailure>
    /** Sets `next` if the account is still in `from`; returns whether it applied. */
    readonly transition: (
      platformId: PlatformId,
      id: ExternalAccountId,
      from: ExternalAccountStatus,
      next: ExternalAccount
    ) => Effect.Effect<boolean, StoreFailure>
    /** Marks the account deleted; returns whether a live account was deleted. */
    readonly delete: (platformId: PlatformId, id: ExternalAccountId) => Effect.Effect<boolean, StoreFailure>
  }
>() {}
