import { Context, type DateTime, type Effect, type Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { LookupId, UmaLookup } from "./UmaLookup.js"

/**
 * Storage of receiver lookups, scoped to one platform: a lookup of another platform is never found. A lookup is
 * written once and never changes, so reads need no locking; inserting an id twice fails with `StoreFailure` and
 * changes nothing. Expired lookups are kept until the hourly purge deletes them (`UmaLookupPurge`); until then a
 * quote refuses them by `expiresAt`.
 */
export class UmaLookupRepo extends Context.Tag("@payrail/core/UmaLookupRepo")<
  UmaLookupRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      lookup: UmaLookup
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: LookupId
    ) => Effect.Effect<Option.Option<UmaLookup>, StoreFailure.StoreFailure>
    /** Deletes lookups that expired before `before`, of every platform, at most `limit`; the number deleted. */
    readonly purgeExpired: (before: DateTime.Utc, limit: number) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
