import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type Customer, type CustomerErrors, Customers } from "../customers/index.js"
import {
  Ids,
  type InvalidInput,
  RateLimit,
  RateLimited,
  RateLimiter,
  type StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import type { ScaChallenge } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import * as FactorReset from "./FactorReset.js"
import { LivenessCheck } from "./LivenessCheck.js"
import { LivenessNotConfigured, type ScaConflict, ScaNotFound, ScaRefused } from "./ScaErrors.js"
import * as ScaLockout from "./ScaLockout.js"
import { ScaProofs } from "./ScaProofs.js"
import { ScaRepo } from "./ScaRepo.js"
import type { ResetCompleteRequest } from "./ScaRequest.js"

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure

/** Resets a customer may start: 5 per 24 hours (the reference's limit). */
export const startLimit: RateLimit.RateLimit = RateLimit.perWindow("sca_factor_reset_per_customer", 5, 86_400_000)

/** What `POST /sca/factors/reset` answers: the reset, and what the end user completes its liveness check with. */
export interface ResetStart {
  readonly resetId: string
  readonly expiresAt: DateTime.Utc
  readonly verificationLink?: string
  readonly livenessAccessToken?: string
}

/**
 * Recovery of a lost factor through a liveness-gated reset. Guarantees: at most `startLimit` starts per customer
 * (429 `RATE_LIMITED` with `Retry-After` beyond); a `TOTP` or `PASSKEY` reset needs that factor enrolled (400
 * otherwise); each reset opens a liveness check with the `LivenessCheck` provider (501 `NOT_IMPLEMENTED`, nothing
 * stored, when none serves the platform's environment: a production platform needs a real one) whose outcome moves
 * it (`PENDING_REVIEW`, `LIVENESS_PASSED`, `REJECTED`), asked again whenever the reset is read or completed;
 * completing needs `LIVENESS_PASSED` (400 `reset_not_ready` otherwise) and,
 * in one unit of work, removes the lost factor (or, for `SMS_OTP`, sets the new mobile number), clears the lockout
 * and marks the reset `COMPLETED`. Only SCA customers (409 otherwise); another customer's reset is 404.
 */
export class FactorResets extends Context.Tag("@payrail/core/FactorResets")<
  FactorResets,
  {
    readonly start: (
      platform: Platform.Platform,
      customerId: string,
      factor: ScaChallenge.ScaFactor
    ) => Effect.Effect<
      ResetStart,
      ScaConflict | ScaRefused | RateLimited.RateLimited | LivenessNotConfigured | CustomerFailure
    >
    readonly get: (
      platform: Platform.Platform,
      customerId: string,
      resetId: string
    ) => Effect.Effect<ReturnType<typeof FactorReset.viewOf>, ScaConflict | ScaNotFound | CustomerFailure>
    readonly complete: (
      platform: Platform.Platform,
      customerId: string,
      resetId: string,
      request: ResetCompleteRequest
    ) => Effect.Effect<void, ScaConflict | ScaNotFound | ScaRefused | InvalidInput.InvalidInput | CustomerFailure>
  }
>() {}

export const layer = Layer.effect(
  FactorResets,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const ids = yield* Ids.Ids
    const limiter = yield* RateLimiter.RateLimiter
    const store = yield* UnitOfWork.UnitOfWork
    const customers = yield* Customers.Customers
    // Optional: without a provider every reset is refused as not configured.
    const liveness = yield* Effect.serviceOption(LivenessCheck)

    // The reset, its liveness outcome asked again while it waits for one (and stored when it moved).
    const find = (platform: Platform.Platform, customerId: string, resetId: string) =>
      Effect.gen(function* () {
        const found = yield* repo.findReset(platform.id, customerId, resetId)
        if (Option.isNone(found)) return yield* ScaNotFound.of("reset", resetId)
        const reset = found.value
        const sessionId = reset.livenessSessionId
        const now = yield* DateTime.now
        if (sessionId === undefined || Option.isNone(liveness) || FactorReset.statusAt(reset, now) === "EXPIRED") {
          return reset
        }
        const status = FactorReset.afterLiveness(
          reset.status,
          yield* liveness.value.outcome({ platformId: platform.id, environment: platform.environment, sessionId })
        )
        if (status === reset.status) return reset
        const moved = new FactorReset.FactorReset({ ...reset, status })
        yield* repo.putReset(platform.id, moved)
        return moved
      })

    const start = Effect.fn("FactorResets.start")(function* (
      platform: Platform.Platform,
      customerId: string,
      factor: ScaChallenge.ScaFactor
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      if (factor !== "SMS_OTP") {
        const factors = yield* repo.listFactors(platform.id, customer.id)
        if (!factors.some((f) => f.factor === factor && f.status === "ACTIVE")) {
          return yield* ScaRefused.of("factor_not_enrolled")
        }
      }
      // Refused before it counts against the customer's starts when no provider could check liveness at all.
      if (Option.isNone(liveness) || !liveness.value.serves(platform.environment)) {
        return yield* LivenessNotConfigured.of(platform.environment)
      }
      const admission = yield* limiter.consume(`sca-reset:${platform.id}:${customer.id}`, startLimit)
      if (!admission.admitted) return yield* RateLimited.RateLimited.of(startLimit, admission.retryAfterMillis)
      const now = yield* DateTime.now
      const id = `ScaReset:${yield* ids.uuid}`
      const expiresAt = DateTime.add(now, { hours: FactorReset.windowHours })
      const session = yield* liveness.value.open({
        platformId: platform.id,
        environment: platform.environment,
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
        resetId: id,
        expiresAt
      })
      const reset = new FactorReset.FactorReset({
        id,
        customerId: customer.id,
        factor,
        status: "INITIATED",
        expiresAt,
        createdAt: now,
        livenessSessionId: session.sessionId,
        ...(session.verificationLink === undefined ? {} : { verificationLink: session.verificationLink }),
        ...(session.livenessAccessToken === undefined ? {} : { livenessAccessToken: session.livenessAccessToken })
      })
      yield* repo.putReset(platform.id, reset)
      return {
        resetId: reset.id,
        expiresAt: reset.expiresAt,
        ...(session.verificationLink === undefined ? {} : { verificationLink: session.verificationLink }),
        ...(session.livenessAccessToken === undefined ? {} : { livenessAccessToken: session.livenessAccessToken })
      }
    })

    const get = Effect.fn("FactorResets.get")(function* (
      platform: Platform.Platform,
      customerId: string,
      resetId: string
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      return FactorReset.viewOf(yield* find(platform, customer.id, resetId), yield* DateTime.now)
    })

    const complete = Effect.fn("FactorResets.complete")(function* (
      platform: Platform.Platform,
      customerId: string,
      resetId: string,
      request: ResetCompleteRequest
    ) {
      const customer = yield* proofs.requireCustomer(platform, customerId)
      const reset = yield* find(platform, customer.id, resetId)
      const now = yield* DateTime.now
      if (FactorReset.statusAt(reset, now) !== "LIVENESS_PASSED") return yield* ScaRefused.of("reset_not_ready")
      if (reset.factor === "SMS_OTP" && request.mobile === undefined) return yield* ScaRefused.of("mobile_required")
      yield* store.transaction(
        Effect.gen(function* () {
          if (reset.factor === "SMS_OTP" && request.mobile !== undefined) {
            yield* (
              customers
                .update(platform, customer.id as Customer.CustomerId, {
                  customerType: customer.customerType,
                  phoneNumber: `${request.mobile.countryCode}${request.mobile.number}`
                })
                // The change carries no terms consent, so no consent can be refused.
                .pipe(Effect.catchTag("EndUserTermsVersionNotFound", Effect.die))
            )
          }
          for (const lost of (yield* repo.listFactors(platform.id, customer.id)).filter(
            (f) => f.factor === reset.factor
          )) {
            yield* repo.deleteFactor(platform.id, customer.id, lost.id)
          }
          yield* repo.putGuard(platform.id, ScaLockout.afterPasswordReset(yield* proofs.guardOf(platform, customer.id)))
          yield* repo.putReset(
            platform.id,
            new FactorReset.FactorReset({ ...reset, status: "COMPLETED", completedAt: now })
          )
        })
      )
    })

    return FactorResets.of({ start, get, complete })
  })
)
