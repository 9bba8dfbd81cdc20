import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuthMethod, AuthMethodId } from "./AuthMethod.js"
import type { InternalAccountId } from "./InternalAccount.js"
import type { Platform } from "../platforms/index.js"
import type { StoreFailure } from "../kernel/index.js"

/** Why `insertUnique` refused a credential: the account has one of its kind, or the passkey is registered already. */
export type InsertOutcome = "inserted" | "duplicate"

/** What `deleteUnlessLast` did. */
export type DeleteOutcome = "deleted" | "last" | "missing"

/**
 * Storage of embedded-wallet credentials, scoped to one platform: another platform's credentials are never found,
 * listed or changed. The uniqueness rules are the store's, so they hold under concurrency: an account has at most
 * one `EMAIL_OTP` and one `SMS_OTP` credential and at most one `OAUTH` credential per identity
 * (`issuer`, `audience`, `subject`), and a passkey `credentialId` is registered once per platform.
 */
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
    /**
     * Inserts the credential unless it breaks a uniqueness rule above, in which case nothing changes and the outcome
     * is `duplicate`: of N concurrent inserts of one passkey, exactly one is `inserted`.
     */
    readonly insertUnique: (
      platformId: Platform.PlatformId,
      method: AuthMethod
    ) => Effect.Effect<InsertOutcome, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: AuthMethodId
    ) => Effect.Effect<Option.Option<AuthMethod>, StoreFailure.StoreFailure>
    /** The account's credentials, oldest first (not paginated: a handful per account). */
    readonly listByAccount: (
      platformId: Platform.PlatformId,
      accountId: InternalAccountId
    ) => Effect.Effect<ReadonlyArray<AuthMethod>, StoreFailure.StoreFailure>
    /**
     * Deletes the credential unless it is the last one of its account (`last`, nothing changes) or does not exist
     * on this account (`missing`). Atomic per account: two concurrent deletions of an account's last two
     * credentials leave one.
     */
    readonly deleteUnlessLast: (
      platformId: Platform.PlatformId,
      accountId: InternalAccountId,
      id: AuthMethodId
    ) => Effect.Effect<DeleteOutcome, StoreFailure.StoreFailure>
    /**
     * Moves a passkey's signature counter from `from` to `to` (guarded: only if it is still `from`); `true` when this
     * call moved it. Of N concurrent assertions with the same counter, exactly one passes.
     */
    readonly advancePasskeyCounter: (
      platformId: Platform.PlatformId,
      id: AuthMethodId,
      from: number,
      to: number,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Sets the nickname (an `EMAIL_OTP` credential's email follows the customer's); `false` if it does not exist. */
    readonly rename: (
      platformId: Platform.PlatformId,
      id: AuthMethodId,
      nickname: string,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
  }
>() {}
