import { Context, type Effect, type Option } from "effect"
import type { Verification, VerificationId, VerificationStatus } from "./Verification.js"
import type { Customer } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** Filters of the verification list; both optional, combined with AND. */
export interface VerificationFilter {
  readonly customerId?: Customer.CustomerId | undefined
  readonly verificationStatus?: VerificationStatus | undefined
}

/**
 * Storage of verification records, scoped to one platform: another platform's verifications are never found or
 * listed. Records are written once (a resubmission is a new record).
 */
export class VerificationRepo extends Context.Tag("@payrail/core/VerificationRepo")<
  VerificationRepo,
  {
    /** Stores a new record; an id stored before fails with `StoreFailure`, keeping the first. */
    readonly insert: (
      platformId: Platform.PlatformId,
      verification: Verification
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: VerificationId
    ) => Effect.Effect<Option.Option<Verification>, StoreFailure.StoreFailure>
    /** A newest-first keyset page of the platform's verifications matching `filter`, with the total count. */
    readonly list: (
      platformId: Platform.PlatformId,
      filter: VerificationFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Verification>, StoreFailure.StoreFailure>
  }
>() {}
