import { Context, type DateTime, type Effect, type Option } from "effect"
import type { AuthMethod, InternalAccount } from "../accounts/index.js"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { AuthSession, AuthSessionId } from "./AuthSession.js"
import type { SignedRequestId } from "./SignedRequest.js"

/**
 * What `revokeConsuming` did: `revoked` (the request consumed and the session revoked), `requestUsed` (the request
 * was consumed already or is unknown: nothing changed) or `sessionInactive` (the request is open but the session is
 * not active: nothing changed, the request stays unconsumed).
 */
export type RevokeConsumingOutcome = "revoked" | "requestUsed" | "sessionInactive"

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
    /**
     * The sessions active at `now` of the account that owns session `id` (that session among them when it is
     * active), oldest first like `listActive`; empty when `id` is unknown on the platform. One read where
     * `findById` then `listActive` would be two.
     */
    readonly listActiveBeside: (
      platformId: Platform.PlatformId,
      id: AuthSessionId,
      now: DateTime.Utc
    ) => Effect.Effect<ReadonlyArray<AuthSession>, StoreFailure.StoreFailure>
    /** Revokes the session if it is active at `at`; `true` when this call revoked it. */
    readonly revoke: (
      platformId: Platform.PlatformId,
      id: AuthSessionId,
      at: DateTime.Utc
    ) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * A signed retry's revocation in one atomic step, with the outcome of consuming the signed request `requestId`
     * (as `SignedRequestRepo.consume` at `at`) then revoking session `id` (as `revoke`) in one unit of work that
     * rolls back when the session is not revoked: both apply or neither. Of concurrent calls with one request, or
     * on one session, exactly one answers `revoked`; the others `requestUsed` when the request is used up by then.
     */
    readonly revokeConsuming: (
      platformId: Platform.PlatformId,
      id: AuthSessionId,
      requestId: SignedRequestId,
      at: DateTime.Utc
    ) => Effect.Effect<RevokeConsumingOutcome, StoreFailure.StoreFailure>
    /** Revokes every session the credential issued that is active at `at`; the number revoked. */
    readonly revokeIssuedBy: (
      platformId: Platform.PlatformId,
      authMethodId: AuthMethod.AuthMethodId,
      at: DateTime.Utc
    ) => Effect.Effect<number, StoreFailure.StoreFailure>
  }
>() {}
