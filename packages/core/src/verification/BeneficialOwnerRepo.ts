import { Context, type DateTime, type Effect, type Option } from "effect"
import type { BeneficialOwner, BeneficialOwnerId } from "./BeneficialOwner.js"
import type { Customer, VerificationStatus } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** A stored owner with its write-only tax identifier and its version for guarded updates. */
export interface StoredBeneficialOwner {
  readonly owner: BeneficialOwner
  /** The tax identifier of `personalInfo`: write-only, never returned by the API. */
  readonly identifier: string
  /** Increases by one with every update; `update` only applies on the version it was read at. */
  readonly version: number
}

/**
 * Storage of beneficial owners, scoped to one platform: another platform's owners are never found, listed or
 * changed.
 */
export class BeneficialOwnerRepo extends Context.Tag("@payrail/core/BeneficialOwnerRepo")<
  BeneficialOwnerRepo,
  {
    /** Stores a new owner at version 1. */
    readonly insert: (
      platformId: Platform.PlatformId,
      owner: StoredBeneficialOwner
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: BeneficialOwnerId
    ) => Effect.Effect<Option.Option<StoredBeneficialOwner>, StoreFailure.StoreFailure>
    /** A newest-first page of the customer's owners, with the total count. */
    readonly list: (
      platformId: Platform.PlatformId,
      customerId: Customer.CustomerId,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<BeneficialOwner>, StoreFailure.StoreFailure>
    /**
     * Every owner of the customer, oldest first by `(createdAt, id)`: what a verification checks. Not paginated; a
     * business declares a handful.
     */
    readonly listAll: (
      platformId: Platform.PlatformId,
      customerId: Customer.CustomerId
    ) => Effect.Effect<ReadonlyArray<StoredBeneficialOwner>, StoreFailure.StoreFailure>
    /**
     * Replaces the owner if it is still at `expectedVersion` (compare-and-set), storing `next` at
     * `expectedVersion + 1`. Returns whether it applied; `false` means a concurrent update won and the caller
     * should re-read.
     */
    readonly update: (
      platformId: Platform.PlatformId,
      next: StoredBeneficialOwner,
      expectedVersion: number
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * Sets the owner's `kycStatus` (and `updatedAt`) unless it is already final (`APPROVED` or `REJECTED`); bumps the
     * version. Returns whether it applied. Guarded in the store, so a final status never changes under any
     * interleaving with `update`.
     */
    readonly resolveKycStatus: (
      platformId: Platform.PlatformId,
      id: BeneficialOwnerId,
      status: VerificationStatus.KycStatus,
      updatedAt: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
