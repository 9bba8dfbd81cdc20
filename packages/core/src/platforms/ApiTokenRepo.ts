import { Context, type Effect, type Option } from "effect"
import type { ApiToken, ApiTokenId } from "./ApiToken.js"
import type { Platform, PlatformId } from "./Platform.js"
import type { StoreFailure } from "../kernel/index.js"

/** An API token together with the platform it belongs to, as authentication needs them. */
export interface TokenWithPlatform {
  readonly token: ApiToken
  readonly platform: Platform
}

/**
 * Storage of API tokens; `clientId` is unique across all platforms. A client id that no token can have (one
 * containing NUL, for example) is simply not found: lookups answer none, never a failure.
 */
export class ApiTokenRepo extends Context.Tag("@payrail/core/ApiTokenRepo")<
  ApiTokenRepo,
  {
    readonly insert: (token: ApiToken) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findByClientId: (clientId: string) => Effect.Effect<Option.Option<ApiToken>, StoreFailure.StoreFailure>
    /**
     * The token with this client id and its platform, read together in one step (one statement on SQL stores), so
     * authenticating a request costs one round trip. None when no token has this client id, or when its platform
     * does not exist.
     */
    readonly findWithPlatform: (
      clientId: string
    ) => Effect.Effect<Option.Option<TokenWithPlatform>, StoreFailure.StoreFailure>
    /**
     * Deletes the token with this client id and answers it, or none when there is none. On stores shared by
     * several processes, the deletion is signalled through `CredentialChanges` to all of them when it commits.
     */
    readonly deleteByClientId: (clientId: string) => Effect.Effect<Option.Option<ApiToken>, StoreFailure.StoreFailure>
    /** The token with this id, if it belongs to this platform. */
    readonly findById: (
      platformId: PlatformId,
      id: ApiTokenId
    ) => Effect.Effect<Option.Option<ApiToken>, StoreFailure.StoreFailure>
    /**
     * Deletes the token with this id if it belongs to this platform, and answers it; signalled through
     * `CredentialChanges` like `deleteByClientId`.
     */
    readonly deleteById: (
      platformId: PlatformId,
      id: ApiTokenId
    ) => Effect.Effect<Option.Option<ApiToken>, StoreFailure.StoreFailure>
    /** The platform's tokens, oldest first. */
    readonly listByPlatform: (
      platformId: PlatformId
    ) => Effect.Effect<ReadonlyArray<ApiToken>, StoreFailure.StoreFailure>
  }
>() {}
