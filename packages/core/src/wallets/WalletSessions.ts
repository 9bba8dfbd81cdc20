import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AuthMethodRepo, type InternalAccount } from "../accounts/index.js"
import { type InvalidInput, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { type AuthSession, type AuthSessionId, isActive } from "./AuthSession.js"
import { AuthSessionRepo } from "./AuthSessionRepo.js"
import type { ClientKeyRequest } from "./CredentialRequest.js"
import * as SessionGrants from "./SessionGrants.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import { AuthSessionNotFound, RequestIdReused } from "./WalletErrors.js"
import { WalletKeys } from "./WalletKeys.js"
import * as WalletStep from "./WalletStep.js"

type Failure = RetryRefused | AuthSessionNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure

/**
 * A wallet's sessions: listing the active ones, refreshing one (signed by that session's own key: a new session
 * of the same credential replaces it) and revoking one (signed by any active session of the wallet, itself
 * included). An expired or revoked session is not found: it must log in again through its credential.
 */
export class WalletSessions extends Context.Tag("@payrail/core/WalletSessions")<
  WalletSessions,
  {
    /** The wallet's active sessions, oldest first (empty for an unknown account). */
    readonly list: (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId
    ) => Effect.Effect<ReadonlyArray<AuthSession>, StoreFailure.StoreFailure>
    readonly refresh: (
      platform: Platform.Platform,
      id: AuthSessionId,
      request: ClientKeyRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<SessionGrants.Grant>, Failure>
    readonly revoke: (
      platform: Platform.Platform,
      id: AuthSessionId,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<void>, Failure>
  }
>() {}

export const layer = Layer.effect(
  WalletSessions,
  Effect.gen(function* () {
    const sessions = yield* AuthSessionRepo
    const methods = yield* AuthMethodRepo.AuthMethodRepo
    const retry = yield* SignedRetry
    const keys = yield* WalletKeys
    const grant = yield* SessionGrants.granter
    const unitOfWork = yield* UnitOfWork.UnitOfWork

    const active = (platform: Platform.Platform, id: AuthSessionId) =>
      Effect.gen(function* () {
        const found = yield* sessions.findById(platform.id, id)
        if (Option.isNone(found) || !isActive(found.value, yield* DateTime.now)) {
          return yield* AuthSessionNotFound.of(id)
        }
        return found.value
      })

    const refresh = Effect.fn("WalletSessions.refresh")(function* (
      platform: Platform.Platform,
      id: AuthSessionId,
      request: ClientKeyRequest,
      headers: WalletHeaders
    ) {
      const session = yield* active(platform, id)
      yield* keys.parsePublicKey(request.clientPublicKey, "clientPublicKey")
      const action = {
        accountId: session.accountId,
        operation: "REFRESH_SESSION",
        targetId: id,
        body: request
      } as const
      if (!isRetry(headers)) return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action) })
      // The retry is signed with the key of the session being refreshed.
      const authorized = yield* retry.authorize(platform.id, action, headers, {
        allowSession: (candidate) => candidate.id === id
      })
      const method = yield* methods.findById(platform.id, session.authMethodId)
      if (Option.isNone(method)) return yield* AuthSessionNotFound.of(id)
      const granted = yield* grant(method.value, { kind: "client", clientPublicKey: request.clientPublicKey })
      yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          yield* sessions.insert(platform.id, granted.session)
          yield* sessions.revoke(platform.id, id, yield* DateTime.now)
        })
      )
      return WalletStep.Done({ value: granted })
    })

    const revoke = Effect.fn("WalletSessions.revoke")(function* (
      platform: Platform.Platform,
      id: AuthSessionId,
      headers: WalletHeaders
    ) {
      // The session and its wallet's active sessions (the keys that may sign the retry) in one read.
      const activeSessions = yield* sessions.listActiveBeside(platform.id, id, yield* DateTime.now)
      const session = activeSessions.find((each) => each.id === id)
      if (session === undefined) return yield* AuthSessionNotFound.of(id)
      const action = {
        accountId: session.accountId,
        operation: "REVOKE_SESSION",
        targetId: id,
        body: undefined
      } as const
      if (!isRetry(headers)) {
        return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action, { type: session.type }) })
      }
      const authorized = yield* retry.authorize(platform.id, action, headers, { activeSessions })
      // Consuming the Request-Id and revoking the session: one atomic step, both or neither.
      const outcome = yield* sessions.revokeConsuming(platform.id, id, authorized.request.id, yield* DateTime.now)
      if (outcome === "requestUsed") return yield* RequestIdReused.of(authorized.request.id)
      if (outcome === "sessionInactive") return yield* AuthSessionNotFound.of(id)
      return WalletStep.Done({ value: undefined })
    })

    return WalletSessions.of({
      list: (platform, accountId) =>
        Effect.flatMap(DateTime.now, (now) => sessions.listActive(platform.id, accountId, now)),
      refresh,
      revoke
    })
  })
)
