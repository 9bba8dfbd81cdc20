import { Context, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { AuthMethod, AuthMethodRepo } from "../accounts/index.js"
import {
  Ids,
  InvalidInput,
  RateLimit,
  RateLimited,
  RateLimiter,
  Sha256,
  type StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { AuthSessionRepo } from "./AuthSessionRepo.js"
import type { CredentialChallengeRequest, VerifyCredentialRequest } from "./CredentialRequest.js"
import * as OauthIssuers from "./OauthIssuers.js"
import { OidcTokens } from "./OidcTokens.js"
import { isOpen, OtpChallenge } from "./OtpChallenge.js"
import { OtpChallengeRepo } from "./OtpChallengeRepo.js"
import { OtpChallenges } from "./OtpChallenges.js"
import { OtpDelivery, type OtpDeliveryFailed } from "./OtpDelivery.js"
import { Passkeys } from "./Passkeys.js"
import * as RelyingParties from "./RelyingParties.js"
import * as SessionGrants from "./SessionGrants.js"
import type { SignedRequest } from "./SignedRequest.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import { AuthMethodNotFound, WalletAuthFailed } from "./WalletErrors.js"
import { WalletKeys } from "./WalletKeys.js"
import * as WalletStep from "./WalletStep.js"

/** The sandbox's one-time code, whatever the platform's `otpLength` (the spec: always `000000`). */
export const sandboxOtpCode = "000000"

/** Re-issues of an OTP challenge per credential: 3 at once, then one every 30 seconds (429 beyond). */
export const otpReissueLimit: RateLimit.RateLimit = RateLimit.perWindow("otp_challenge_per_credential", 3, 90_000)

/** What `challenge` answers: an OTP credential with its target bundle, or a passkey's WebAuthn challenge. */
export type LoginChallenge =
  | { readonly _tag: "Otp"; readonly method: AuthMethod.AuthMethod; readonly otpEncryptionTargetBundle: string }
  | { readonly _tag: "Passkey"; readonly request: SignedRequest }

type Failure =
  RetryRefused | WalletAuthFailed | InvalidInput.InvalidInput | AuthMethodNotFound | StoreFailure.StoreFailure

/**
 * Logging in to an embedded wallet with a credential: `challenge` (a fresh one-time code and target for OTP
 * credentials, rate-limited; a single-use WebAuthn challenge for passkeys) and `verify`, which grants a session.
 * An OTP verify is itself a signed retry: the first leg checks the code and answers a challenge that only the TEK
 * inside the bundle can sign; its retry grants the session whose key is that TEK.
 */
export class Logins extends Context.Tag("@payrail/core/Logins")<
  Logins,
  {
    readonly challenge: (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      request: CredentialChallengeRequest
    ) => Effect.Effect<LoginChallenge, Failure | RateLimited.RateLimited | OtpDeliveryFailed>
    readonly verify: (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      request: VerifyCredentialRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<SessionGrants.Grant>, Failure>
  }
>() {}

export const layer = Layer.effect(
  Logins,
  Effect.gen(function* () {
    const methods = yield* AuthMethodRepo.AuthMethodRepo
    const sessions = yield* AuthSessionRepo
    const otpRepo = yield* OtpChallengeRepo
    const otps = yield* OtpChallenges
    const delivery = yield* OtpDelivery
    const oidc = yield* OidcTokens
    const passkeys = yield* Passkeys
    const keys = yield* WalletKeys
    const retry = yield* SignedRetry
    const limiter = yield* RateLimiter.RateLimiter
    const unitOfWork = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids

    const method = (platform: Platform.Platform, id: AuthMethod.AuthMethodId) =>
      Effect.flatMap(methods.findById(platform.id, id), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(AuthMethodNotFound.of(id))
      )

    const grant = yield* SessionGrants.granter

    const otpChallenge = (platform: Platform.Platform, found: AuthMethod.AuthMethod) =>
      Effect.gen(function* () {
        const admission = yield* limiter.consume(`wallet-otp:${platform.id}:${found.id}`, otpReissueLimit)
        if (!admission.admitted) return yield* RateLimited.RateLimited.of(otpReissueLimit, admission.retryAfterMillis)
        const config = platform.config.embeddedWalletConfig
        const issued = yield* otps.issue({
          length: config?.otpLength ?? 6,
          alphanumeric: config?.alphanumeric ?? false,
          ...(platform.environment === "SANDBOX" ? { fixedCode: sandboxOtpCode } : {})
        })
        const now = yield* DateTime.now
        const expiresAt = DateTime.add(now, { seconds: config?.expirationSeconds ?? 300 })
        yield* otpRepo.put(
          platform.id,
          new OtpChallenge({
            authMethodId: found.id,
            codeDigest: issued.codeDigest,
            sealedTargetKey: issued.sealedTargetKey,
            issuedAt: now,
            expiresAt,
            failedAttempts: 0
          })
        )
        yield* delivery.send({
          platformId: platform.id,
          channel: found.type === "EMAIL_OTP" ? "EMAIL" : "SMS",
          to: found.nickname,
          code: issued.code,
          expiresAt,
          ...(config?.appName === undefined ? {} : { appName: config.appName }),
          ...(config?.sendFromEmailAddress === undefined ? {} : { fromAddress: config.sendFromEmailAddress }),
          ...(config?.sendFromEmailSenderName === undefined ? {} : { fromName: config.sendFromEmailSenderName }),
          ...(config?.replyToEmailAddress === undefined ? {} : { replyTo: config.replyToEmailAddress })
        })
        return { _tag: "Otp", method: found, otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle } as const
      })

    const passkeyChallenge = (
      platform: Platform.Platform,
      found: AuthMethod.AuthMethod,
      request: CredentialChallengeRequest
    ) =>
      Effect.gen(function* () {
        const clientPublicKey = request.clientPublicKey
        if (clientPublicKey === undefined) {
          return yield* InvalidInput.InvalidInput.onField(
            "clientPublicKey",
            "a passkey challenge needs clientPublicKey"
          )
        }
        yield* keys.parsePublicKey(clientPublicKey, "clientPublicKey")
        // The WebAuthn challenge: SHA-256 of the session-creation body and a fresh nonce, single use.
        const nonce = Redacted.make(Ids.base64url(yield* ids.randomBytes(32)))
        const challenge = yield* Sha256.hex(
          Sha256.canonicalJson({ credentialId: found.id, clientPublicKey, nonce: Redacted.value(nonce) })
        )
        const issued = yield* retry.issue(
          platform.id,
          { accountId: found.accountId, operation: "VERIFY_CREDENTIAL", targetId: found.id, body: undefined },
          { type: "PASSKEY", clientPublicKey, payloadToSign: () => challenge }
        )
        return { _tag: "Passkey", request: issued } as const
      })

    const challenge = Effect.fn("Logins.challenge")(function* (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      request: CredentialChallengeRequest
    ) {
      const found = yield* method(platform, id)
      switch (found.type) {
        case "EMAIL_OTP":
        case "SMS_OTP":
          return yield* otpChallenge(platform, found)
        case "PASSKEY":
          return yield* passkeyChallenge(platform, found, request)
        case "OAUTH":
          return yield* InvalidInput.InvalidInput.onField(
            "id",
            "an OAUTH credential takes no challenge: verify it with a fresh oidcToken and clientPublicKey"
          )
      }
    })

    const store = (platform: Platform.Platform, granted: SessionGrants.Grant, request?: SignedRequest) =>
      unitOfWork.transaction(
        Effect.gen(function* () {
          if (request !== undefined) yield* retry.consume(platform.id, request)
          yield* sessions.insert(platform.id, granted.session)
          return granted
        })
      )

    const verifyOtp = (
      platform: Platform.Platform,
      found: AuthMethod.AuthMethod,
      request: Extract<VerifyCredentialRequest, { readonly encryptedOtpBundle: string }>,
      headers: WalletHeaders
    ) =>
      Effect.gen(function* () {
        const action = {
          accountId: found.accountId,
          operation: "VERIFY_CREDENTIAL",
          targetId: found.id,
          body: request
        } as const
        if (isRetry(headers)) {
          const authorized = yield* retry.authorize(platform.id, action, headers)
          const tek = authorized.signerPublicKey
          return WalletStep.Done({
            value: yield* store(platform, yield* grant(found, { kind: "held", publicKey: tek }), authorized.request)
          })
        }
        const open = yield* otpRepo.find(platform.id, found.id)
        if (Option.isNone(open)) {
          return yield* WalletAuthFailed.of(
            "otp_challenge_missing",
            "No one-time code is open for this credential; request one with challenge"
          )
        }
        const now = yield* DateTime.now
        if (!isOpen(open.value, now)) {
          return yield* WalletAuthFailed.of(
            "otp_challenge_expired",
            "The one-time code expired or took too many wrong answers; request a new one"
          )
        }
        const opened = yield* otps.open({
          encryptedOtpBundle: request.encryptedOtpBundle,
          sealedTargetKey: open.value.sealedTargetKey
        })
        if (opened.codeDigest !== open.value.codeDigest) {
          yield* otpRepo.recordFailure(platform.id, found.id, open.value.issuedAt)
          return yield* WalletAuthFailed.of("otp_code", "The one-time code is wrong")
        }
        const issued = yield* unitOfWork.transaction(
          Effect.gen(function* () {
            const taken = yield* otpRepo.take(platform.id, found.id, open.value.issuedAt)
            if (!taken) {
              return yield* WalletAuthFailed.of(
                "otp_challenge_missing",
                "This one-time code was used or replaced; request a new one"
              )
            }
            return yield* retry.issue(platform.id, action, { type: found.type, signerPublicKey: opened.publicKey })
          })
        )
        return WalletStep.Challenge({ request: issued })
      })

    const verify = Effect.fn("Logins.verify")(function* (
      platform: Platform.Platform,
      id: AuthMethod.AuthMethodId,
      request: VerifyCredentialRequest,
      headers: WalletHeaders
    ) {
      const found = yield* method(platform, id)
      if (request.type !== found.type) {
        return yield* InvalidInput.InvalidInput.onField("type", `must be ${found.type}, the credential's type`)
      }
      switch (request.type) {
        case "EMAIL_OTP":
        case "SMS_OTP":
          return yield* verifyOtp(platform, found, request, headers)
        case "OAUTH": {
          yield* oidc.verify({
            token: request.oidcToken,
            issuers: OauthIssuers.of(platform),
            sandbox: platform.environment === "SANDBOX",
            ...(found.oauth === undefined ? {} : { identity: found.oauth }),
            clientPublicKey: request.clientPublicKey
          })
          const granted = yield* grant(found, { kind: "client", clientPublicKey: request.clientPublicKey })
          return WalletStep.Done({ value: yield* store(platform, granted) })
        }
        case "PASSKEY": {
          const pending = yield* retry.pending(
            platform.id,
            { accountId: found.accountId, operation: "VERIFY_CREDENTIAL", targetId: found.id },
            headers.requestId
          )
          if (found.credentialId === undefined || found.passkey === undefined)
            return yield* Effect.die("passkey without its key")
          if (request.assertion.credentialId !== found.credentialId) {
            return yield* WalletAuthFailed.of(
              "passkey_credential_id",
              "The assertion is by another passkey than this credential"
            )
          }
          const asserted = yield* passkeys.verifyAssertion({
            challenge: pending.payloadToSign,
            assertion: request.assertion,
            credentialId: found.credentialId,
            key: found.passkey,
            relyingParty: yield* RelyingParties.of(platform)
          })
          const clientPublicKey = pending.clientPublicKey ?? ""
          const granted = yield* grant(found, { kind: "client", clientPublicKey })
          const counterFrom = found.passkey.counter
          const stored = yield* unitOfWork.transaction(
            Effect.gen(function* () {
              const advanced = yield* methods.advancePasskeyCounter(
                platform.id,
                found.id,
                counterFrom,
                asserted.counter,
                yield* DateTime.now
              )
              if (!advanced)
                return yield* WalletAuthFailed.of("passkey_counter", "The passkey's signature counter moved meanwhile")
              return yield* store(platform, granted, pending)
            })
          )
          return WalletStep.Done({ value: stored })
        }
      }
    })

    return Logins.of({ challenge, verify })
  })
)
