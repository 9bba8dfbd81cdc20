import { Context, type Effect } from "effect"
import type { AuthMethod } from "./AuthMethod.js"
import type { StoreFailure } from "./Errors.js"
import type { InternalAccountId } from "./InternalAccount.js"
import type { PlatformId } from "./Platform.js"

/** Storage of embedded-wallet credentials, scoped to one platform. */
export class AuthMethodRepo extends Context.Tag("@payrail/core/AuthMethodRepo")<
  AuthMethodRepo,
  {
    readonly insert: (platformId: PlatformId, method: AuthMethod) => Effect.Effect<void, StoreFailure>
    /** The account's credentials, oldest first (not paginated: a handful per account). */
    readonly listByAccount: (
      platformId: PlatformId,
      accountId: InternalAccountId
    ) => Effect.Effect<ReadonlyArray<AuthMethod>, StoreFailure>
  }
>() {}
