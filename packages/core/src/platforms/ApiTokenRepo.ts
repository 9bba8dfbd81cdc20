import { Context, type Effect, type Option } from "effect"
import type { ApiToken } from "./ApiToken.js"
import type { PlatformId } from "./Platform.js"
import type { StoreFailure } from "../kernel/index.js"

/** Storage of API tokens; `clientId` is unique across all platforms. */
export class ApiTokenRepo extends Context.Tag("@payrail/core/ApiTokenRepo")<
  ApiTokenRepo,
  {
    readonly insert: (token: ApiToken) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findByClientId: (clientId: string) => Effect.Effect<Option.Option<ApiToken>, StoreFailure.StoreFailure>
    /** The platform's tokens, oldest first. */
    readonly listByPlatform: (platformId: PlatformId) => Effect.Effect<ReadonlyArray<ApiToken>, StoreFailure.StoreFailure>
  }
>() {}
