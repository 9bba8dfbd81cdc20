import { Context, type Effect } from "effect"
import type { AuthMethod } from "./AuthMethod.js"
import type { InternalAccountId } from "./InternalAccount.js"
import type { Platform } from "../platforms/index.js"
import type { StoreFailure } from "../kernel/index.js"

/** Storage of embedded-wallet credentials, scoped to one platform. */
export class AuthMethodRepo extends Context.Tag("@payrail/core/AuthMethodRepo")<
  AuthMethodRepo,
  {
    readonly insert: (
      platformId: Platform.PlatformId,
      method: AuthMethod
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * Inserts every credential atomically (one statement on SQL adapters; none for an empty list): what `insert` of
     * each in turn would do, all or nothing.
     */
    readonly insertAll: (
      platformId: Platform.PlatformId,
      methods: ReadonlyArray<AuthMethod>
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** The account's credentials, oldest first (not paginated: a handful per account). */
    readonly listByAccount: (
      platformId: Platform.PlatformId,
      accountId: InternalAccountId
    ) => Effect.Effect<ReadonlyArray<AuthMethod>, StoreFailure.StoreFailure>
  }
>() {}
