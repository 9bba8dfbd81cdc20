import { Context, DateTime, Effect, Either, Encoding, Layer, Option, Redacted } from "effect"
import { type Customer, type CustomerErrors, Customers } from "../customers/index.js"
import { Ids, RateLimit, RateLimited, RateLimiter, Sha256, type StoreFailure } from "../kernel/index.js"
import type { ScaChallenge } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import { OtpDelivery, Passkeys, RelyingParties } from "../wallets/index.js"
import * as EnrolledFactor from "./EnrolledFactor.js"
import * as PendingChallenge from "./PendingChallenge.js"
import { ScaRepo } from "./ScaRepo.js"
import { type AccountLocked, ScaConflict, ScaRefused, type ScaRefusalRule, ScaSessionRequired } from "./ScaErrors.js"
import * as ScaLockout from "./ScaLockout.js"
import { usesSca } from "./ScaRegions.js"
import * as Totp from "./Totp.js"

/** The code of every sandbox platform (SMS and TOTP alike); nothing is sent. */
export const sandboxCode = "123456"

/** Codes re-sent for one challenge: 3 per 10 minutes, so a customer's phone is not spammed. */
export const resendLimit: RateLimit.RateLimit = RateLimit.perWindow("sca_code_resend_per_challenge", 3, 600_000)

/** Proofs tried against one challenge: 3 a minute (the brute-force guard; wrong codes also void it after 5). */
export const attemptLimit: RateLimit.RateLimit = RateLimit.perWindow("sca_authorize_per_challenge", 3, 60_000)

/** What a proof carries: a code (`SMS_OTP`, `TOTP`), or a passkey assertion with its origin. */
export interface Proof {
  readonly code?: string | null | undefined
  readonly passkeyAssertion?: unknown
  readonly origin?: string | null | undefined
}

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure

/**
 * The proof machinery every SCA operation shares. Guarantees: only customers of an SCA region pass `requireCustomer`
 * (others get 409); a challenge's code is 6 digits, `123456` on sandbox platforms (nothing sent) and drawn from `Ids`
 * otherwise (sent by SMS through `OtpDelivery`), stored only as a salted SHA-256; every wrong proof is counted on the
 * challenge and on the customer's `LoginGuard` (the lockout ladder) in its own write, so a refused request still
 * counts; a locked or suspended customer is refused 423 before any proof is looked at; a right proof resets the
 * customer's failures. Codes are never logged.
 */
export class ScaProofs extends Context.Tag("@payrail/core/ScaProofs")<
  ScaProofs,
  {
    /** The live customer, if its region uses SCA; 409 `CONFLICT` (`sca_not_used`) otherwise. */
    readonly requireCustomer: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<Customer.Customer, ScaConflict | CustomerFailure>
    /** The customer's login guard (a fresh one if it never failed). */
    readonly guardOf: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<ScaLockout.LoginGuard, StoreFailure.StoreFailure>
    /** Fails 423 `ACCOUNT_LOCKED` while the customer is locked out or suspended. */
    readonly ensureUnlocked: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<void, AccountLocked | StoreFailure.StoreFailure>
    /** Fails 409 `SCA_SESSION_REQUIRED` unless the customer has an SCA login session open at the platform's now. */
    readonly ensureSession: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<void, ScaSessionRequired | StoreFailure.StoreFailure>
    /** Counts one failure on the customer's guard (in its own write); the guard after it. */
    readonly countFailure: (
      platform: Platform.Platform,
      customerId: string
    ) => Effect.Effect<ScaLockout.LoginGuard, StoreFailure.StoreFailure>
    /** Clears the customer's failures after a right proof (joins the caller's unit of work). */
    readonly countSuccess: (
      platform: Platform.Platform,
      customerId: string,
      session?: DateTime.Utc
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /**
     * The factors that may satisfy a challenge of the customer: `SMS_OTP`, and `PASSKEY` when it has an active
     * passkey and the platform has a relying party.
     */
    readonly challengeFactors: (
      platform: Platform.Platform,
      customer: Customer.Customer
    ) => Effect.Effect<ReadonlyArray<ScaChallenge.ScaFactor>, StoreFailure.StoreFailure>
    /**
     * Issues and stores a challenge for `purpose` and `subjectId`, sending its code when its factor is `SMS_OTP`;
     * when `PASSKEY` is available, with a fresh WebAuthn challenge and the request options naming the customer's
     * passkey.
     */
    readonly issue: (
      platform: Platform.Platform,
      customer: Customer.Customer,
      request: {
        readonly purpose: PendingChallenge.ChallengePurpose
        readonly subjectId: string
        readonly factor: ScaChallenge.ScaFactor
        readonly availableFactors: ReadonlyArray<ScaChallenge.ScaFactor>
        readonly expiresAt?: DateTime.Utc
      }
    ) => Effect.Effect<PendingChallenge.PendingChallenge, StoreFailure.StoreFailure>
    /** Sends a new code for an open `SMS_OTP` challenge (same id, same `expiresAt`); at most `resendLimit`. */
    readonly resend: (
      platform: Platform.Platform,
      customer: Customer.Customer,
      challenge: PendingChallenge.PendingChallenge
    ) => Effect.Effect<void, ScaConflict | RateLimited.RateLimited | StoreFailure.StoreFailure>
    /**
     * Checks `proof` against the open `challenge` of `customer`: 423 while locked, 429 beyond `attemptLimit` when
     * `guarded`, 400 `ScaRefused` when expired, void or wrong (counted). A `passkeyAssertion` (with its `origin`)
     * is checked by the `Passkeys` port against the challenge's WebAuthn challenge and the customer's passkey, whose
     * signature counter then advances; a wrong one is `passkey_invalid` (counted). Does not consume the challenge.
     */
    readonly verify: (
      platform: Platform.Platform,
      challenge: PendingChallenge.PendingChallenge,
      proof: Proof,
      options?: { readonly guarded: boolean }
    ) => Effect.Effect<void, AccountLocked | ScaRefused | RateLimited.RateLimited | StoreFailure.StoreFailure>
    /**
     * Checks a TOTP `code` of the customer's active TOTP factor (or `123456` on sandbox), or one of its unused
     * recovery codes (then used up); counted like `verify`.
     */
    readonly verifyTotp: (
      platform: Platform.Platform,
      customerId: string,
      code: string
    ) => Effect.Effect<void, AccountLocked | ScaRefused | StoreFailure.StoreFailure>
  }
>() {}

// Salted by the challenge's id, so equal codes of two challenges never share a digest.
const digestOf = (id: string, code: string) => Sha256.hex(`sca-code:${id}:${code}`)

// Rejection sampling over 32-bit draws keeps every 6-digit code equally likely.
const randomCode = (ids: Context.Tag.Service<Ids.Ids>): Effect.Effect<string> =>
  Effect.flatMap(ids.randomBytes(4), (bytes) => {
    const value = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0)
    const space = 1_000_000
    return value >= Math.floor(0x1_0000_0000 / space) * space
      ? randomCode(ids)
      : Effect.succeed(String(value % space).padStart(6, "0"))
  })

export const layer = Layer.effect(
  ScaProofs,
  Effect.gen(function* () {
    const customers = yield* Customers.Customers
    const repo = yield* ScaRepo
    const ids = yield* Ids.Ids
    const delivery = yield* OtpDelivery.OtpDelivery
    const limiter = yield* RateLimiter.RateLimiter
    const passkeys = yield* Passkeys.Passkeys

    const guardOf = (platform: Platform.Platform, customerId: string) =>
      Effect.map(
        repo.findGuard(platform.id, customerId),
        Option.getOrElse(() => ScaLockout.fresh(customerId))
      )

    const ensureUnlocked = (platform: Platform.Platform, customerId: string) =>
      Effect.flatMap(Effect.zip(guardOf(platform, customerId), DateTime.now), ([guard, now]) =>
        Either.match(ScaLockout.check(guard, now), { onLeft: Effect.fail, onRight: () => Effect.void })
      )

    const ensureSession = (platform: Platform.Platform, customerId: string) =>
      Effect.flatMap(Effect.zip(guardOf(platform, customerId), DateTime.now), ([guard, now]) =>
        guard.sessionExpiresAt !== undefined && DateTime.lessThan(now, guard.sessionExpiresAt)
          ? Effect.void
          : Effect.fail(ScaSessionRequired.of(customerId, guard.sessionExpiresAt))
      )

    const countFailure = (platform: Platform.Platform, customerId: string) =>
      Effect.gen(function* () {
        const next = ScaLockout.afterFailure(yield* guardOf(platform, customerId), yield* DateTime.now)
        yield* repo.putGuard(platform.id, next)
        return next
      })

    const countSuccess = (platform: Platform.Platform, customerId: string, session?: DateTime.Utc) =>
      Effect.gen(function* () {
        const guard = ScaLockout.afterSuccess(yield* guardOf(platform, customerId))
        yield* repo.putGuard(
          platform.id,
          session === undefined ? guard : new ScaLockout.LoginGuard({ ...guard, sessionExpiresAt: session })
        )
      })

    // Sends `code` by SMS outside the sandbox; a failed hand-off is left to a resend rather than failing the request.
    const send = (platform: Platform.Platform, customer: Customer.Customer, code: string, expiresAt: DateTime.Utc) =>
      platform.environment === "SANDBOX" || customer.phoneNumber === undefined
        ? Effect.void
        : delivery
            .send({
              platformId: platform.id,
              channel: "SMS",
              to: customer.phoneNumber,
              code: Redacted.make(code),
              expiresAt,
              ...(platform.config.embeddedWalletConfig?.appName === undefined
                ? {}
                : { appName: platform.config.embeddedWalletConfig.appName })
            })
            .pipe(Effect.catchAll(() => Effect.logWarning("an SCA code could not be sent; the customer may resend")))

    const newCode = (platform: Platform.Platform) =>
      platform.environment === "SANDBOX" ? Effect.succeed(sandboxCode) : randomCode(ids)

    const refuse = (
      platform: Platform.Platform,
      customerId: string,
      challengeId: Option.Option<string>,
      rule: ScaRefusalRule = "code_mismatch"
    ) =>
      Effect.gen(function* () {
        if (Option.isSome(challengeId)) yield* repo.recordChallengeFailure(platform.id, challengeId.value)
        yield* countFailure(platform, customerId)
        return yield* ScaRefused.of(rule)
      })

    const activePasskey = (platform: Platform.Platform, customerId: string) =>
      Effect.map(repo.listFactors(platform.id, customerId), (factors) =>
        Option.fromNullable(factors.find((f) => f.factor === "PASSKEY" && f.status === "ACTIVE"))
      )

    const challengeFactors = (platform: Platform.Platform, customer: Customer.Customer) =>
      Effect.gen(function* () {
        const sms: ReadonlyArray<ScaChallenge.ScaFactor> = ["SMS_OTP"]
        const party = yield* Effect.either(RelyingParties.of(platform))
        const passkey = yield* activePasskey(platform, customer.id)
        return Option.isSome(passkey) && Either.isRight(party) ? [...sms, "PASSKEY" as const] : sms
      })

    // The WebAuthn side of a challenge a passkey may satisfy: a random challenge string (whose UTF-8 bytes the
    // authenticator signs, as the Passkeys port checks) and the request options naming the customer's passkey.
    const passkeyMaterial = (platform: Platform.Platform, customerId: string) =>
      Effect.gen(function* () {
        const party = Either.getRight(yield* Effect.either(RelyingParties.of(platform)))
        const passkey = yield* activePasskey(platform, customerId)
        if (Option.isNone(party) || Option.isNone(passkey) || passkey.value.credentialId === undefined) return {}
        const passkeyChallenge = Encoding.encodeBase64Url(yield* ids.randomBytes(32))
        return {
          passkeyChallenge,
          passkeyOptions: {
            challenge: Encoding.encodeBase64Url(new TextEncoder().encode(passkeyChallenge)),
            rpId: party.value.rpId,
            allowCredentials: [{ type: "public-key", id: passkey.value.credentialId }],
            timeout: PendingChallenge.lifetimeMinutes * 60_000,
            userVerification: "preferred"
          },
          passkeyAllowedOrigins: party.value.origins
        }
      })

    const field = (value: unknown, key: string): string | undefined => {
      const found = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined
      return typeof found === "string" ? found : undefined
    }

    // A passkey assertion (WebAuthn's `PublicKeyCredential` JSON: `id` and `response`) for the challenge.
    const verifyPasskey = (platform: Platform.Platform, challenge: PendingChallenge.PendingChallenge, proof: Proof) =>
      Effect.gen(function* () {
        if (challenge.passkeyChallenge === undefined || !challenge.availableFactors.includes("PASSKEY")) {
          return yield* ScaRefused.of("factor_not_allowed")
        }
        const origin = proof.origin ?? undefined
        if (origin === undefined) return yield* ScaRefused.of("proof_missing")
        const party = yield* RelyingParties.of(platform).pipe(
          Effect.mapError(() => ScaRefused.of("factor_not_allowed"))
        )
        const passkey = yield* activePasskey(platform, challenge.customerId)
        if (
          Option.isNone(passkey) ||
          passkey.value.credentialId === undefined ||
          passkey.value.publicKey === undefined
        ) {
          return yield* ScaRefused.of("factor_not_enrolled")
        }
        const factor = passkey.value
        const credentialId = factor.credentialId ?? ""
        const assertion = proof.passkeyAssertion
        const response =
          typeof assertion === "object" && assertion !== null
            ? (assertion as Record<string, unknown>)["response"]
            : undefined
        // The origin must be one of the platform's; the port then checks the assertion was made on it.
        if (!party.origins.includes(origin)) {
          return yield* refuse(platform, challenge.customerId, Option.some(challenge.id), "passkey_invalid")
        }
        const verified = yield* Effect.either(
          passkeys.verifyAssertion({
            challenge: challenge.passkeyChallenge,
            assertion: {
              credentialId: field(assertion, "id") ?? "",
              clientDataJson: field(response, "clientDataJSON") ?? "",
              authenticatorData: field(response, "authenticatorData") ?? "",
              signature: field(response, "signature") ?? "",
              userHandle: field(response, "userHandle") ?? null
            },
            credentialId,
            key: { publicKey: factor.publicKey ?? "", counter: factor.counter ?? 0, transports: [] },
            relyingParty: { rpId: party.rpId, origins: [origin] }
          })
        )
        if (Either.isLeft(verified)) {
          return yield* refuse(platform, challenge.customerId, Option.some(challenge.id), "passkey_invalid")
        }
        yield* repo.putFactor(
          platform.id,
          new EnrolledFactor.EnrolledFactor({ ...factor, counter: verified.right.counter })
        )
      })

    const verifyTotp = (platform: Platform.Platform, customerId: string, code: string) =>
      Effect.gen(function* () {
        yield* ensureUnlocked(platform, customerId)
        const factors = yield* repo.listFactors(platform.id, customerId)
        const totp = factors.find((factor) => factor.factor === "TOTP" && factor.status === "ACTIVE")
        if (totp === undefined || totp.secret === undefined) return yield* ScaRefused.of("factor_not_enrolled")
        const now = yield* DateTime.now
        const right =
          (platform.environment === "SANDBOX" && code === sandboxCode) ||
          (yield* Totp.verify(totp.secret, code, DateTime.toEpochMillis(now)))
        if (right) return
        // A recovery code stands in for the app's code once.
        const digest = yield* EnrolledFactor.recoveryDigest(totp.id, code)
        const unused = totp.recoveryCodeDigests ?? []
        if (!unused.includes(digest)) return yield* refuse(platform, customerId, Option.none())
        yield* repo.putFactor(
          platform.id,
          new EnrolledFactor.EnrolledFactor({ ...totp, recoveryCodeDigests: unused.filter((d) => d !== digest) })
        )
      })

    return ScaProofs.of({
      requireCustomer: (platform, customerId) =>
        Effect.flatMap(customers.requireLive(platform, customerId as Customer.CustomerId), (customer) =>
          usesSca(customer.region)
            ? Effect.succeed(customer)
            : Effect.fail(ScaConflict.of("sca_not_used", { customerId }))
        ),
      guardOf,
      ensureUnlocked,
      ensureSession,
      challengeFactors,
      countFailure,
      countSuccess,
      issue: (platform, customer, request) =>
        Effect.gen(function* () {
          const now = yield* DateTime.now
          const id = `ScaChallenge:${yield* ids.uuid}`
          const expiresAt = request.expiresAt ?? DateTime.add(now, { minutes: PendingChallenge.lifetimeMinutes })
          const code = request.factor === "SMS_OTP" ? Option.some(yield* newCode(platform)) : Option.none()
          const passkey = request.availableFactors.includes("PASSKEY")
            ? yield* passkeyMaterial(platform, customer.id)
            : {}
          const challenge = new PendingChallenge.PendingChallenge({
            ...passkey,
            id,
            customerId: customer.id,
            purpose: request.purpose,
            subjectId: request.subjectId,
            factor: request.factor,
            availableFactors: request.availableFactors,
            ...(Option.isSome(code) ? { codeDigest: yield* digestOf(id, code.value) } : {}),
            expiresAt,
            failedAttempts: 0,
            sentAt: now
          })
          yield* repo.putChallenge(platform.id, challenge)
          if (Option.isSome(code)) yield* send(platform, customer, code.value, expiresAt)
          return challenge
        }),
      resend: (platform, customer, challenge) =>
        Effect.gen(function* () {
          const now = yield* DateTime.now
          if (challenge.factor !== "SMS_OTP") {
            return yield* ScaConflict.of("challenge_not_resendable", { quoteId: challenge.subjectId })
          }
          if (!PendingChallenge.isOpen(challenge, now))
            return yield* ScaConflict.of("no_pending_challenge", { quoteId: challenge.subjectId })
          const admission = yield* limiter.consume(`sca-resend:${platform.id}:${challenge.id}`, resendLimit)
          if (!admission.admitted) return yield* RateLimited.RateLimited.of(resendLimit, admission.retryAfterMillis)
          const code = yield* newCode(platform)
          yield* repo.putChallenge(
            platform.id,
            new PendingChallenge.PendingChallenge({
              ...challenge,
              codeDigest: yield* digestOf(challenge.id, code),
              sentAt: now
            })
          )
          yield* send(platform, customer, code, challenge.expiresAt)
        }),
      verify: (platform, challenge, proof, options = { guarded: false }) =>
        Effect.gen(function* () {
          yield* ensureUnlocked(platform, challenge.customerId)
          if (options.guarded) {
            const admission = yield* limiter.consume(`sca-attempt:${platform.id}:${challenge.id}`, attemptLimit)
            if (!admission.admitted) return yield* RateLimited.RateLimited.of(attemptLimit, admission.retryAfterMillis)
          }
          const now = yield* DateTime.now
          if (!DateTime.lessThan(now, challenge.expiresAt)) return yield* ScaRefused.of("challenge_expired")
          if (challenge.failedAttempts >= PendingChallenge.maxFailedAttempts) {
            return yield* ScaRefused.of("challenge_exhausted")
          }
          const code = proof.code ?? undefined
          if (code === undefined) {
            if (proof.passkeyAssertion === undefined || proof.passkeyAssertion === null) {
              return yield* ScaRefused.of("proof_missing")
            }
            return yield* verifyPasskey(platform, challenge, proof)
          }
          if (challenge.factor === "PASSKEY") return yield* ScaRefused.of("factor_not_allowed")
          if (challenge.factor === "TOTP") return yield* verifyTotp(platform, challenge.customerId, code)
          if (challenge.codeDigest === undefined || (yield* digestOf(challenge.id, code)) !== challenge.codeDigest) {
            return yield* refuse(platform, challenge.customerId, Option.some(challenge.id))
          }
        }),
      verifyTotp
    })
  })
)
