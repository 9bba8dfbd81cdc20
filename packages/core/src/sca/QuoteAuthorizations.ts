import { Context, Effect, Layer, Option } from "effect"
import { Customer, CustomerRepo, type CustomerErrors } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import { type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { PaymentErrors, type Quote, QuoteAuthorizationGate, Quotes, type ScaChallenge } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import * as PendingChallenge from "./PendingChallenge.js"
import * as ScaChallengeExpiryJob from "./ScaChallengeExpiryJob.js"
import { type AccountLocked, ScaConflict, type ScaRefused, type ScaSessionRequired } from "./ScaErrors.js"
import { ScaProofs } from "./ScaProofs.js"
import { usesSca } from "./ScaRegions.js"
import { ScaRepo } from "./ScaRepo.js"
import type { ScaAuthorization } from "./ScaRequest.js"
import type { RateLimited } from "../kernel/index.js"

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure
type ExecuteError = Effect.Effect.Error<ReturnType<Context.Tag.Service<Quotes.Quotes>["executeAuthorized"]>>

/**
 * Strong customer authentication of payments. Authorizing needs the customer's SCA login session (409
 * `SCA_SESSION_REQUIRED` without one, before the proof is looked at). An execution (or `immediatelyExecute`) of a quote of an SCA customer
 * that pays anyone but a trusted beneficiary or an internal account waits in `PENDING_AUTHORIZATION` with an SMS
 * challenge (`gateLayer`); `authorize` checks its code and executes the quote as an execute would, in one unit of
 * work with the challenge's consumption (a wrong code is counted: the brute-force guard answers 429 beyond 3 tries a
 * minute, 5 wrong codes void the challenge, and the customer's lockout ladder climbs); `resend` sends a new code for
 * the same challenge (at most 3 per 10 minutes, 429 beyond). When the challenge lapses, `ScaChallengeExpiryJob`
 * fails the quote and its transaction (`SCA_NOT_COMPLETED`).
 */
export class QuoteAuthorizations extends Context.Tag("@payrail/core/QuoteAuthorizations")<
  QuoteAuthorizations,
  {
    readonly authorize: (
      platform: Platform.Platform,
      quoteId: Quote.QuoteId,
      proof: ScaAuthorization
    ) => Effect.Effect<
      Quote.Quote,
      | ScaConflict
      | ScaSessionRequired
      | ScaRefused
      | AccountLocked
      | RateLimited.RateLimited
      | ExecuteError
      | CustomerFailure
    >
    readonly resend: (
      platform: Platform.Platform,
      quoteId: Quote.QuoteId
    ) => Effect.Effect<void, ScaConflict | RateLimited.RateLimited | PaymentErrors.QuoteNotFound | CustomerFailure>
  }
>() {}

export const layer = Layer.effect(
  QuoteAuthorizations,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const quotes = yield* Quotes.Quotes
    const store = yield* UnitOfWork.UnitOfWork

    // The quote's customer and its open challenge; 409 when SCA does not apply or nothing waits.
    const pending = (platform: Platform.Platform, quoteId: Quote.QuoteId) =>
      Effect.gen(function* () {
        const quote = yield* quotes.get(platform, quoteId)
        if (quote.customerId === undefined) return yield* ScaConflict.of("sca_not_used", { quoteId: quote.id })
        const customer = yield* proofs.requireCustomer(platform, quote.customerId)
        const challenge =
          quote.status === "PENDING_AUTHORIZATION" && quote.scaChallenge !== undefined
            ? yield* repo.findChallenge(platform.id, quote.scaChallenge.id)
            : Option.none()
        if (Option.isNone(challenge)) return yield* ScaConflict.of("no_pending_challenge", { quoteId: quote.id })
        return { quote, customer, challenge: challenge.value }
      })

    const authorize = Effect.fn("QuoteAuthorizations.authorize")(function* (
      platform: Platform.Platform,
      quoteId: Quote.QuoteId,
      proof: ScaAuthorization
    ) {
      const { challenge, customer, quote } = yield* pending(platform, quoteId)
      // Money moves only within an SCA login session (the reference's SCA_SESSION_REQUIRED).
      yield* proofs.ensureSession(platform, customer.id)
      yield* proofs.verify(platform, challenge, proof, { guarded: true })
      return yield* store.transaction(
        Effect.gen(function* () {
          if (!(yield* repo.takeChallenge(platform.id, challenge.id))) {
            return yield* ScaConflict.of("no_pending_challenge", { quoteId: quote.id })
          }
          yield* proofs.countSuccess(platform, customer.id)
          return yield* quotes.executeAuthorized(platform, quote.id)
        })
      )
    })

    const resend = Effect.fn("QuoteAuthorizations.resend")(function* (
      platform: Platform.Platform,
      quoteId: Quote.QuoteId
    ) {
      const { challenge, customer } = yield* pending(platform, quoteId)
      yield* proofs.resend(platform, customer, challenge)
    })

    return QuoteAuthorizations.of({ authorize, resend })
  })
)

/**
 * The SCA context's `QuoteAuthorizationGate`: a quote for a customer of an SCA region whose destination is not an
 * internal account and not a trusted beneficiary gets an SMS challenge (which the customer's passkey may satisfy too) (stored, with its expiry job, in the
 * execution's unit of work); every other quote executes at once.
 */
export const gateLayer = Layer.effect(
  QuoteAuthorizationGate.QuoteAuthorizationGate,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const jobs = yield* Jobs.Jobs

    const exempt = (platform: Platform.Platform, quote: Quote.Quote) =>
      quote.destination.destinationType === "ACCOUNT"
        ? quote.destination.accountId.startsWith("InternalAccount:")
          ? Effect.succeed(true)
          : repo.isTrusted(platform.id, quote.destination.accountId)
        : Effect.succeed(false)

    return QuoteAuthorizationGate.QuoteAuthorizationGate.of({
      challengeFor: (platform, quote) =>
        Effect.gen(function* () {
          if (quote.customerId === undefined) return Option.none<ScaChallenge.ScaChallenge>()
          const found = yield* customers.findById(platform.id, Customer.CustomerId.make(quote.customerId))
          if (Option.isNone(found) || !usesSca(found.value.customer.region)) return Option.none()
          if (yield* exempt(platform, quote)) return Option.none()
          const challenge = yield* proofs.issue(platform, found.value.customer, {
            purpose: "QUOTE",
            subjectId: quote.id,
            factor: "SMS_OTP",
            availableFactors: yield* proofs.challengeFactors(platform, found.value.customer)
          })
          yield* jobs.enqueue(ScaChallengeExpiryJob.newJob(platform.id, challenge.id, challenge.expiresAt))
          return Option.some(PendingChallenge.viewOf(challenge))
        })
    })
  })
)
