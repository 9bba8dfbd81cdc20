import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Platform, PlatformId } from "./Platform.js"
import type { StoreFailure } from "../kernel/index.js"

/** Storage of platforms. */
export class PlatformRepo extends Context.Tag("@payrail/core/PlatformRepo")<
  PlatformRepo,
  {
    /** Stores a new platform. Ids are unique: inserting an existing id fails with `StoreFailure.StoreFailure`. */
    readonly insert: (platform: Platform) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (id: PlatformId) => Effect.Effect<Option.Option<Platform>, StoreFailure.StoreFailure>
    /** All platforms, oldest first. Platforms are few; this is for operators, not for request paths. */
    readonly list: Effect.Effect<ReadonlyArray<Platform>, StoreFailure.StoreFailure>
    /**
     * Replaces the stored platform with `next` (same id) in one guarded step, only if the stored one still has
     * `previousUpdatedAt`: answers false, changing nothing, when another change came first (or the platform is
     * gone), so a caller that read, merged and wrote never loses a concurrent change. A change is signalled through
     * `CredentialChanges` to every process sharing the store, since cached credentials hold the platform.
     */
    readonly updateConfig: (
      next: Platform,
      previousUpdatedAt: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * Moves the platform's clock `bySeconds` further ahead in one atomic step (concurrent advances add up), unless
     * its offset would then exceed `maxOffsetSeconds`, and answers the platform after it: none when there is no such
     * platform or the limit holds. Only the offset changes (not the record nor its `updatedAt`). Signalled through
     * `CredentialChanges` like `updateConfig`, since cached credentials hold the platform.
     */
    readonly advanceClock: (
      id: PlatformId,
      bySeconds: number,
      maxOffsetSeconds: number
    ) => Effect.Effect<Option.Option<Platform>, StoreFailure.StoreFailure>
  }
>() {}
