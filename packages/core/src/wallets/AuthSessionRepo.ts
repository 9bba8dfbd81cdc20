import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuthMethod, InternalAccount } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { AuthSession, AuthSessionId } from "./AuthSession.js"

/**
 * Storage of wallet sessions, scoped to one platform: a session of another platform is never found or changed.
 * Revocation is a guarded write (`revokedAt` is set once, only on a session still active at the given time), so of
 * N concurrent revocations of one session exactly one reports `true`.
 */
export class AuthSessionRepo extends Context.Tag("@payrail/core/AuthSessionRepo")<
  AuthSessionRepo,
  {
    /** Inserts a new session; an id inserted twice fails with `StoreFailure` and changes nothing. */
    readonly insert: (
      platformId: Platform.PlatformId,
      session: AuthSession
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: Platform.PlatformId,
      id: AuthSessionId
    ) => Effect.Effect<Option.Option<AuthSession>, StoreFailure.StoreFailure>
    /** The account's sessions active at `now` (not revoked, `expiresAt` after `now`), oldest first. */
    readonly listActive: (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      now: DateTime.Utc
    ) => Effect.Effect<ReadonlyArray<AuthSession>, StoreFailure.StoreFailure>
    /** Revokes the session if it is active at `at`; `true` when this call revoked it. */
    readonly revoke: (
      platformId: Platform.PlatformId,
      id: AuthSessionId,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /** Revokes every session the credential issued that is active at `at`; the number revoked. */
    readonly revokeIssuedBy: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId,
      at: DateTime.Utc
    ) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
