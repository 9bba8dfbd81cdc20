import { Context, type Effect, type Option } from "effect"
import type { Page, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Stablecoin, StablecoinFilter, StablecoinId } from "./Stablecoin.js"
import type { StablecoinAlreadyRegistered } from "./StablecoinErrors.js"
import type {
  OperationStatus,
  StablecoinOperation,
  StablecoinOperationId,
  StoredOperation
} from "./StablecoinOperation.js"
import type {
  ProviderAccountFilter,
  StablecoinProviderAccount,
  StablecoinProviderAccountId,
  StoredProviderAccount
} from "./StablecoinProviderAccount.js"

/**
 * Storage of stablecoin issuance: provider account links, registered stablecoins and their operations. Every read is
 * scoped to the platform; each id is inserted once (a second insert fails `StoreFailure`); records never change
 * once stored, but an operation, whose status moves on by compare and set. Lists are keyset pages by
 * `(createdAt, id)`, newest first, without a count.
 */
export class StablecoinRepo extends Context.Tag("@payrail/core/StablecoinRepo")<
  StablecoinRepo,
  {
    readonly insertProviderAccount: (stored: StoredProviderAccount) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findProviderAccount: (
      platformId: Platform.PlatformId,
      id: StablecoinProviderAccountId
    ) => Effect.Effect<Option.Option<StoredProviderAccount>, StoreFailure.StoreFailure>
    readonly listProviderAccounts: (
      platformId: Platform.PlatformId,
      filter: ProviderAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<StablecoinProviderAccount>, StoreFailure.StoreFailure>
    /**
     * Inserts a stablecoin unless the platform already has one with its `network` and `networkTokenIdentifier`
     * (enforced by the store): of concurrent inserts of one token exactly one wins and the others fail with
     * `StablecoinAlreadyRegistered`. Another platform may register the same token.
     */
    readonly insertStablecoin: (
      platformId: Platform.PlatformId,
      stablecoin: Stablecoin
    ) => Effect.Effect<void, StablecoinAlreadyRegistered | StoreFailure.StoreFailure>
    readonly findStablecoin: (
      platformId: Platform.PlatformId,
      id: StablecoinId
    ) => Effect.Effect<Option.Option<Stablecoin>, StoreFailure.StoreFailure>
    readonly listStablecoins: (
      platformId: Platform.PlatformId,
      filter: StablecoinFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Stablecoin>, StoreFailure.StoreFailure>
    readonly insertOperation: (stored: StoredOperation) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * Replaces the operation (same id and platform) only while its stored status is `expectedStatus` (compare and
     * set, one atomic write): `false` when another change won.
     */
    readonly updateOperation: (
      stored: StoredOperation,
      expectedStatus: OperationStatus
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    readonly findOperation: (
      platformId: Platform.PlatformId,
      id: StablecoinOperationId
    ) => Effect.Effect<Option.Option<StablecoinOperation>, StoreFailure.StoreFailure>
    /** The stablecoin's operations. */
    readonly listOperations: (
      platformId: Platform.PlatformId,
      stablecoinId: StablecoinId,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<StablecoinOperation>, StoreFailure.StoreFailure>
  }
>() {}
