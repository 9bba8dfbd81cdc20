import { Context, type Effect, type Option } from "effect"
import type { StoreFailure } from "./Errors.js"
import type { Platform, PlatformId } from "./Platform.js"

/** Storage of platforms. */
export class PlatformRepo extends Context.Tag("@payrail/core/PlatformRepo")<
  PlatformRepo,
  {
    /** Stores a new platform. Ids are unique: inserting an existing id fails with `StoreFailure`. */
    readonly insert: (platform: Platform) => Effect.Effect<void, StoreFailure>
    readonly findById: (id: PlatformId) => Effect.Effect<Option.Option<Platform>, StoreFailure>
    /** All platforms, oldest first. Platforms are few; this is for operators, not for request paths. */
    readonly list: Effect.Effect<ReadonlyArray<Platform>, StoreFailure>
  }
>() {}
