import { Context, type Effect, type Option } from "effect"
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
  }
>() {}
