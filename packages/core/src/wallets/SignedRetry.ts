import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import type { AuthMethod, InternalAccount } from "../accounts/index.js"
import { Ids, ResourceId, Sha256, type StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { type AuthSession, isActive } from "./AuthSession.js"
import { AuthSessionRepo } from "./AuthSessionRepo.js"
import * as DelegatedKey from "./DelegatedKey.js"
import { DelegatedKeyRepo } from "./DelegatedKeyRepo.js"
import { isOpen, lifetimeSeconds, type Operation, SignedRequest, SignedRequestId } from "./SignedRequest.js"
import { SignedRequestRepo } from "./SignedRequestRepo.js"
import {
  RequestIdMissing,
  RequestIdReused,
  WalletAuthFailed,
  WalletSignatureBodyMismatch,
  WalletSignatureInvalid,
  type WalletSignatureMalformed,
  WalletSignatureMissing
} from "./WalletErrors.js"
import { WalletSignatures } from "./WalletSignatures.js"

/** The wallet headers of a request: `Service-Wallet-Signature` (or its alias) and `Request-Id`, when present. */
export interface WalletHeaders {
  readonly signature: Option.Option<string>
  readonly requestId: Option.Option<string>
}

/** Whether the request carries either wallet header: it is a signed retry, not a first leg. */
export const isRetry = (headers: WalletHeaders): boolean =>
  Option.isSome(headers.signature) || Option.isSome(headers.requestId)

/**
 * The wallet action a request asks for: the operation, the wallet, the resource in its path and its body (the body
 * as decoded; its canonical JSON is what binds the retry to it).
 */
export interface Action {
  readonly accountId: InternalAccount.InternalAccountId
  readonly operation: Operation
  readonly targetId: string
  readonly body: unknown
}

/** What a challenge records besides the action. */
export interface ChallengeOptions {
  /** The credential type the challenge body names (credential and session challenges). */
  readonly type?: AuthMethod.AuthMethodType
  /** The only key allowed to sign the retry (an OTP login's TEK); by default any active session of the wallet. */
  readonly signerPublicKey?: string
  /** The device key a session created by the retry is bound to. */
  readonly clientPublicKey?: string
  /** The exact text to hand out as `payloadToSign`; by default a JSON text naming the request and the action. */
  readonly payloadToSign?: (request: { readonly requestId: SignedRequestId; readonly bodyHash: string }) => string
}

/** A retry whose stamp authorises its action: the stored request and the allowed key (as stored) that signed. */
export interface Authorized {
  readonly request: SignedRequest
  readonly signerPublicKey: string
}

/** The 401s of a signed retry, each with its own code. */
export type RetryRefused =
  | WalletSignatureMissing
  | WalletSignatureMalformed
  | WalletSignatureBodyMismatch
  | WalletSignatureInvalid
  | RequestIdMissing
  | RequestIdReused
  | WalletAuthFailed

/** How `SignedRetry.authorize` picks the sessions that may sign a retry. */
export interface AuthorizeOptions {
  /**
   * Narrows which of the wallet's active sessions may sign (a credential's revocation needs another credential's
   * session); not consulted when the challenge names its signer. Default: every active session.
   */
  readonly allowSession?: (session: AuthSession) => boolean
  /**
   * The wallet's active sessions when the caller has just read them (as `AuthSessionRepo.listActive` or
   * `listActiveBeside` answers): used (those still active at this call's time) instead of reading them again.
   */
  readonly activeSessions?: ReadonlyArray<AuthSession>
}

/**
 * The signed-retry pattern of the spec (rules 1-6): a first leg gets a stored challenge (`Request:<uuid>`, the
 * SHA-256 of the canonical body, `payloadToSign`, 5 minutes from `Clock`); the retry must carry a stamp over the
 * exact `payloadToSign` by an allowed key, the same body and an unused, unexpired `Request-Id`. `authorize` checks
 * everything but consumes nothing; the operation calls `consume` inside its own unit of work (or consumes the
 * request in the statement that writes, as a session's revocation does: `AuthSessionRepo.revokeConsuming`), so the
 * request is used exactly once, by the retry whose operation commits.
 */
export class SignedRetry extends Context.Tag("@payrail/core/SignedRetry")<
  SignedRetry,
  {
    /** Stores a challenge for the action and returns it. */
    readonly issue: (
      platformId: Platform.PlatformId,
      action: Action,
      options?: ChallengeOptions
    ) => Effect.Effect<SignedRequest, StoreFailure.StoreFailure>
    /** Checks a retry of `action` (see `AuthorizeOptions`). */
    readonly authorize: (
      platformId: Platform.PlatformId,
      action: Action,
      headers: WalletHeaders,
      options?: AuthorizeOptions
    ) => Effect.Effect<Authorized, RetryRefused | StoreFailure.StoreFailure>
    /**
     * The open request a `Request-Id` names for `action` (without a stamp: a passkey assertion answers its challenge
     * instead): fails when the header is absent, unknown, for another action, used or expired.
     */
    readonly pending: (
      platformId: Platform.PlatformId,
      action: Omit<Action, "body">,
      requestId: Option.Option<string>
    ) => Effect.Effect<SignedRequest, RequestIdMissing | RequestIdReused | WalletAuthFailed | StoreFailure.StoreFailure>
    /**
     * Checks a stamp over `payloadToSign` by an active session of the wallet (among those `allowSession` keeps), or,
     * when `operation` is given, by a delegated key of the wallet that may sign it (`ACTIVE`, unexpired, in scope:
     * `DelegatedKey.signs`, read at each call, so a revocation applies at once), and answers the signer's key:
     * `WALLET_SIGNATURE_INVALID` (`session_key`) when no session or key may sign.
     */
    readonly verifyBySession: (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      stamp: string,
      payloadToSign: string,
      allowSession?: (session: AuthSession) => boolean,
      operation?: Operation
    ) => Effect.Effect<string, WalletSignatureMalformed | WalletSignatureInvalid | StoreFailure.StoreFailure>
    /** Uses the request up: fails with `RequestIdReused` when another retry consumed it first. */
    readonly consume: (
      platformId: Platform.PlatformId,
      request: SignedRequest
    ) => Effect.Effect<void, RequestIdReused | StoreFailure.StoreFailure>
  }
>() {}

/** The SHA-256 (lowercase hex) of a body's canonical JSON; an absent body hashes as the empty string. */
export const bodyHash = (body: unknown): Effect.Effect<string> =>
  Sha256.hex(body === undefined ? "" : Sha256.canonicalJson(body))

const defaultPayload =
  (action: Action, expiresAt: DateTime.Utc) =>
  (request: { readonly requestId: SignedRequestId; readonly bodyHash: string }): string =>
    JSON.stringify({
      requestId: request.requestId,
      operation: action.operation,
      accountId: action.accountId,
      targetId: action.targetId,
      bodyHash: request.bodyHash,
      expiresAt: DateTime.formatIso(expiresAt)
    })

const decodeRequestId = Schema.decodeUnknownOption(SignedRequestId)

const isScope = Schema.is(DelegatedKey.DelegatedKeyScope)

export const layer = Layer.effect(
  SignedRetry,
  Effect.gen(function* () {
    const requests = yield* SignedRequestRepo
    const sessions = yield* AuthSessionRepo
    const delegatedKeys = yield* DelegatedKeyRepo
    const signatures = yield* WalletSignatures
    const ids = yield* Ids.Ids

    const issue = Effect.fn("SignedRetry.issue")(function* (
      platformId: Platform.PlatformId,
      action: Action,
      options: ChallengeOptions = {}
    ) {
      const now = yield* DateTime.now
      const expiresAt = DateTime.add(now, { seconds: lifetimeSeconds })
      const requestId = SignedRequestId.make(ResourceId.format("Request", yield* ids.uuid))
      const hash = yield* bodyHash(action.body)
      const payloadToSign = (options.payloadToSign ?? defaultPayload(action, expiresAt))({ requestId, bodyHash: hash })
      const request = new SignedRequest({
        id: requestId,
        accountId: action.accountId,
        operation: action.operation,
        targetId: action.targetId,
        bodyHash: hash,
        payloadToSign,
        ...(options.type === undefined ? {} : { type: options.type }),
        ...(options.signerPublicKey === undefined ? {} : { signerPublicKey: options.signerPublicKey }),
        ...(options.clientPublicKey === undefined ? {} : { clientPublicKey: options.clientPublicKey }),
        createdAt: now,
        expiresAt
      })
      yield* requests.insert(platformId, request)
      return request
    })

    const pending = Effect.fn("SignedRetry.pending")(function* (
      platformId: Platform.PlatformId,
      action: Omit<Action, "body">,
      requestIdHeader: Option.Option<string>
    ) {
      if (Option.isNone(requestIdHeader)) return yield* RequestIdMissing.of()
      const requestId = decodeRequestId(requestIdHeader.value)
      const found = Option.isNone(requestId) ? Option.none() : yield* requests.findById(platformId, requestId.value)
      if (Option.isNone(found)) {
        return yield* WalletAuthFailed.of("request_id_unknown", "No challenge was issued with this Request-Id")
      }
      const request = found.value
      if (
        request.accountId !== action.accountId ||
        request.operation !== action.operation ||
        request.targetId !== action.targetId
      ) {
        return yield* WalletAuthFailed.of(
          "request_for_other_action",
          "This Request-Id was issued for another action; retry the request it was issued for"
        )
      }
      if (request.consumedAt !== undefined) return yield* RequestIdReused.of(request.id)
      if (!isOpen(request, yield* DateTime.now)) {
        return yield* WalletAuthFailed.of(
          "request_expired",
          "The challenge expired; send the request without wallet headers for a new one"
        )
      }
      return request
    })

    // `verifyBySession`, on the wallet's active sessions as the caller read them when it did.
    const verifyAmong = Effect.fn("SignedRetry.verifyBySession")(function* (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      stamp: string,
      payloadToSign: string,
      allowSession: (session: AuthSession) => boolean,
      operation: Operation | undefined,
      activeSessions: ReadonlyArray<AuthSession> | undefined
    ) {
      const now = yield* DateTime.now
      const active =
        activeSessions === undefined
          ? yield* sessions.listActive(platformId, accountId, now)
          : activeSessions.filter((session) => session.accountId === accountId && isActive(session, now))
      // Only an operation a delegated key can be scoped to costs the extra read.
      const delegated =
        operation === undefined || !isScope(operation)
          ? []
          : (yield* delegatedKeys.listSigners(platformId, accountId)).filter((key) =>
              DelegatedKey.signs(key, operation, now)
            )
      const allowed = [
        ...active.filter(allowSession).map((session) => session.publicKey),
        ...delegated.map((key) => key.publicKey)
      ]
      if (allowed.length === 0) {
        return yield* WalletSignatureInvalid.of(
          "session_key",
          "No active session of this wallet may sign this action; verify a credential first"
        )
      }
      return (yield* signatures.verify({ stamp, payloadToSign, allowedPublicKeys: allowed })).publicKey
    })

    const verifyBySession = (
      platformId: Platform.PlatformId,
      accountId: InternalAccount.InternalAccountId,
      stamp: string,
      payloadToSign: string,
      allowSession: (session: AuthSession) => boolean = () => true,
      operation?: Operation
    ) => verifyAmong(platformId, accountId, stamp, payloadToSign, allowSession, operation, undefined)

    const authorize = Effect.fn("SignedRetry.authorize")(function* (
      platformId: Platform.PlatformId,
      action: Action,
      headers: WalletHeaders,
      options: AuthorizeOptions = {}
    ) {
      if (Option.isNone(headers.requestId)) {
        return yield* Option.isSome(headers.signature) ? RequestIdMissing.of() : WalletSignatureMissing.of()
      }
      if (Option.isNone(headers.signature)) return yield* WalletSignatureMissing.of()
      const request = yield* pending(platformId, action, headers.requestId)
      if ((yield* bodyHash(action.body)) !== request.bodyHash) return yield* WalletSignatureBodyMismatch.of()
      const signerPublicKey =
        request.signerPublicKey === undefined
          ? yield* verifyAmong(
              platformId,
              action.accountId,
              headers.signature.value,
              request.payloadToSign,
              options.allowSession ?? (() => true),
              action.operation,
              options.activeSessions
            )
          : (yield* signatures.verify({
              stamp: headers.signature.value,
              payloadToSign: request.payloadToSign,
              allowedPublicKeys: [request.signerPublicKey]
            })).publicKey
      return { request, signerPublicKey } satisfies Authorized
    })

    const consume = Effect.fn("SignedRetry.consume")(function* (
      platformId: Platform.PlatformId,
      request: SignedRequest
    ) {
      const won = yield* requests.consume(platformId, request.id, yield* DateTime.now)
      if (!won) return yield* RequestIdReused.of(request.id)
    })

    return SignedRetry.of({ issue, authorize, pending, verifyBySession, consume })
  })
)
