import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { CustomerErrors } from "../customers/index.js"
import { type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { ScaChallenge } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AccountLocked, ScaConflict } from "./ScaErrors.js"
import { ScaRefused } from "./ScaErrors.js"
import * as ScaLockout from "./ScaLockout.js"
import { ScaProofs } from "./ScaProofs.js"
import { ScaRepo } from "./ScaRepo.js"
import type { LoginCompleteRequest, SecurityEventType } from "./ScaRequest.js"

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure

/**
 * How long the SCA session a completed login opens lasts: 180 days, the reference's session (PSD2's RTS, article 10a,
 * asks for strong authentication at least every 180 days). Quote authorizations need it (`SCA_SESSION_REQUIRED`).
 */
export const sessionDays = 180

/**
 * What `POST /sca/login/start` answers: for `SMS_OTP` the challenge handle and until when its code is good; for
 * `PASSKEY` the WebAuthn request options, the origins allowed and the relying party id (and the challenge's expiry).
 */
export interface LoginStart {
  readonly factor: ScaChallenge.ScaFactor
  readonly challengeId?: string
  readonly expiresAt?: DateTime.Utc
  readonly passkeyOptions?: Record<string, unknown>
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly relyingPartyId?: string
}

/** The customer's login-security state after a recorded event. */
export interface SecurityState {
  readonly eventType: SecurityEventType
  readonly suspended: boolean
  readonly lockedUntil: DateTime.Utc | null
  readonly failedAttempts: number
}

/**
 * SCA logins and security events. Guarantees: a login is started with a factor the customer has (`SMS_OTP` with a
 * phone number: a code is sent; `TOTP` once enrolled; `PASSKEY` once enrolled: a single-use WebAuthn challenge) and
 * completed with its proof (a passkey's assertion is checked by the `Passkeys` port; a replayed one finds its
 * challenge gone); every wrong proof climbs the
 * lockout ladder of `ScaLockout` (5 → 15 min ... ≥ 9 suspended) and a locked customer is refused 423
 * `ACCOUNT_LOCKED` before the proof is looked at; a right proof clears the failures and opens a session of
 * `sessionDays`. `FAILED_LOGIN_ATTEMPT` climbs the same ladder; `RESET_PASSWORD_COMPLETED` clears it (and the
 * session). Only SCA customers (409 otherwise).
 */
export class ScaLogins extends Context.Tag("@payrail/core/ScaLogins")<
  ScaLogins,
  {
    readonly start: (
      platform: Platform.Platform,
      customerId: string,
      factor: ScaChallenge.ScaFactor
    ) => Effect.Effect<LoginStart, ScaConflict | ScaRefused | CustomerFailure>
    readonly complete: (
      platform: Platform.Platform,
      customerId: string,
      request: LoginCompleteRequest
    ) => Effect.Effect<
      { readonly status: "SUCCESS"; readonly sessionExpiresAt: DateTime.Utc },
      ScaConflict | ScaRefused | AccountLocked | CustomerFailure
    >
    readonly recordEvent: (
      platform: Platform.Platform,
      customerId: string,
      eventType: SecurityEventType
    ) => Effect.Effect<SecurityState, ScaConflict | AccountLocked | CustomerFailure>
  }
>() {}

export const layer = Layer.effect(
  ScaLogins,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const store = yield* UnitOfWork.UnitOfWork

    const activeFactor = (platform: Platform.Platform, customerId: string, factor: ScaChallenge.ScaFactor) =>
      Effect.map(repo.listFactors(platform.id, customerId), (factors) =>
        factors.some((f) => f.factor === factor && f.status === "ACTIVE")
      )

    const start = Effect.fn("ScaLogins.start")(function* (
      platform: Platform.Platform,
      customerId: string,
      factor: ScaChallenge.ScaFactor
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      if (factor === "SMS_OTP") {
        if (customer.phoneNumber === undefined) return yield* ScaRefused.of("factor_not_enrolled")
        const challenge = yield* proofs.issue(platform, customer, {
          purpose: "LOGIN",
          subjectId: customer.id,
          factor,
          availableFactors: ["SMS_OTP"]
        })
        return { factor, challengeId: challenge.id, expiresAt: challenge.expiresAt }
      }
      if (!(yield* activeFactor(platform, customer.id, factor))) return yield* ScaRefused.of("factor_not_enrolled")
      if (factor === "PASSKEY") {
        const challenge = yield* proofs.issue(platform, customer, {
          purpose: "LOGIN",
          subjectId: customer.id,
          factor,
          availableFactors: ["PASSKEY"]
        })
        // The platform lost its relying party since the passkey was enrolled: nothing can be asserted.
        if (challenge.passkeyOptions === undefined || challenge.passkeyAllowedOrigins === undefined) {
          return yield* ScaRefused.of("factor_not_allowed")
        }
        return {
          factor,
          expiresAt: challenge.expiresAt,
          passkeyOptions: challenge.passkeyOptions,
          allowedOrigins: challenge.passkeyAllowedOrigins,
          relyingPartyId: String(challenge.passkeyOptions["rpId"])
        }
      }
      return { factor }
    })

    const complete = Effect.fn("ScaLogins.complete")(function* (
      platform: Platform.Platform,
      customerId: string,
      request: LoginCompleteRequest
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      yield* proofs.ensureUnlocked(platform, customer.id)
      const now = yield* DateTime.now
      const sessionExpiresAt = DateTime.add(now, { days: sessionDays })
      if (request.factor === "TOTP") {
        const code = request.code ?? undefined
        if (code === undefined) return yield* ScaRefused.of("proof_missing")
        yield* proofs.verifyTotp(platform, customer.id, code)
        yield* proofs.countSuccess(platform, customer.id, sessionExpiresAt)
        return { status: "SUCCESS" as const, sessionExpiresAt }
      }
      // SMS_OTP names its challenge; a passkey login answers the customer's latest login challenge.
      const challengeId = request.challengeId ?? undefined
      const found =
        challengeId !== undefined
          ? yield* repo.findChallenge(platform.id, challengeId)
          : request.factor === "PASSKEY"
            ? yield* repo.findChallengeFor(platform.id, customer.id, "LOGIN", customer.id)
            : Option.none()
      if (
        Option.isNone(found) ||
        found.value.customerId !== customer.id ||
        found.value.purpose !== "LOGIN" ||
        found.value.factor !== request.factor
      ) {
        return yield* ScaRefused.of("challenge_not_found")
      }
      yield* proofs.verify(platform, found.value, request).pipe(Effect.catchTag("RateLimited", Effect.die))
      yield* store.transaction(
        Effect.gen(function* () {
          if (!(yield* repo.takeChallenge(platform.id, found.value.id))) {
            return yield* ScaRefused.of("challenge_not_found")
          }
          yield* proofs.countSuccess(platform, customer.id, sessionExpiresAt)
        })
      )
      return { status: "SUCCESS" as const, sessionExpiresAt }
    })

    const recordEvent = Effect.fn("ScaLogins.recordEvent")(function* (
      platform: Platform.Platform,
      customerId: string,
      eventType: SecurityEventType
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const now = yield* DateTime.now
      let guard: ScaLockout.LoginGuard
      if (eventType === "RESET_PASSWORD_COMPLETED") {
        guard = ScaLockout.afterPasswordReset(yield* proofs.guardOf(platform, customer.id))
        yield* repo.putGuard(platform.id, guard)
      } else {
        yield* proofs.ensureUnlocked(platform, customer.id)
        guard = yield* proofs.countFailure(platform, customer.id)
      }
      return { eventType, ...ScaLockout.view(guard, now) }
    })

    return ScaLogins.of({ start, complete, recordEvent })
  })
)
