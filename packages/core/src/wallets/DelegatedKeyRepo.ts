import { Context, type DateTime, type Effect, type Option } from "effect"
import type { InternalAccount } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { DelegatedKey, DelegatedKeyId } from "./DelegatedKey.js"

/** Filters of the delegated key list: at least one is given by the API. */
export interface DelegatedKeyFilter {
  readonly accountId?: InternalAccount.InternalAccountId | undefined
  readonly cardId?: string | undefined
}

/**
 * Storage of delegated signing keys, scoped to one platform: a key of another platform is never found or revoked.
 * - `insert` stores a key unless the wallet already has a non-revoked key for the same card (or for no card):
 *   `false` then, and nothing changes; of concurrent inserts for one wallet and card exactly one succeeds.
 * - `revoke` is a compare-and-set to `REVOKED` from any other status, so revocation applies once and at once: a
 *   signature check that reads after it commits no longer sees the key.
 * - `list` answers oldest first, every status; `listSigners` the wallet's `ACTIVE` keys.
 */
export class DelegatedKeyRepo extends Context.Tag("@payrail/core/DelegatedKeyRepo")<
  DelegatedKeyRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      key: DelegatedKey
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: DelegatedKeyId
    ) => Effect.Effect<Option.Option<DelegatedKey>, StoreFailure.StoreFailure>
    readonly list: (
      platformId: Platform.PlatformId,
      filter: DelegatedKeyFilter
    ) => Effect.Effect<ReadonlyArray<DelegatedKey>, StoreFailure.StoreFailure>
    readonly listSigners: (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId
    ) => Effect.Effect<ReadonlyArray<DelegatedKey>, StoreFailure.StoreFailure>
    /** Marks the key `REVOKED` at `at` if it is not; the revoked key when this call revoked it. */
    readonly revoke: (
      platformId: Platform.PlatformId,
      id: DelegatedKeyId,
      at: DateTime.Utc
    ) => Effect.Effect<Option.Option<DelegatedKey>, StoreFailure.StoreFailure>
  }
>() {}
