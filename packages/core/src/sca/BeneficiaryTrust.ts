import { Context, Effect, Layer, Option } from "effect"
import { type ExternalAccount, ExternalAccountRepo } from "../accounts/index.js"
import type { CustomerErrors } from "../customers/index.js"
import { type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { ScaChallenge } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import * as PendingChallenge from "./PendingChallenge.js"
import { type AccountLocked, BeneficiaryTrusted, ScaConflict, ScaNotFound, type ScaRefused } from "./ScaErrors.js"
import { ScaProofs } from "./ScaProofs.js"
import { ScaRepo } from "./ScaRepo.js"
import type { TrustConfirmRequest } from "./ScaRequest.js"

type CustomerFailure = CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | StoreFailure.StoreFailure
type Failure = ScaConflict | ScaNotFound | CustomerFailure

/**
 * Trusted beneficiaries: a customer's external accounts that payments may go to without a per-payment SCA challenge.
 * Trusting and untrusting each take an SMS challenge (start) and its code, or the customer's passkey assertion
 * (confirm); the change and the challenge's
 * consumption are one unit of work, and the right code clears the customer's failures (a wrong one climbs the
 * lockout ladder). An unknown account is 404 `NOT_FOUND`; a platform-owned account, or one of a customer outside the SCA regions, is 409; trusting a
 * trusted account (or untrusting an untrusted one) is 409.
 */
export class BeneficiaryTrust extends Context.Tag("@payrail/core/BeneficiaryTrust")<
  BeneficiaryTrust,
  {
    /** Starts trusting (`trust: true`) or untrusting the account: the challenge to satisfy. */
    readonly start: (
      platform: Platform.Platform,
      externalAccountId: string,
      trust: boolean
    ) => Effect.Effect<{ readonly scaChallenge: ScaChallenge.ScaChallenge }, Failure>
    /** Confirms with the challenge's code: whether the account is now trusted. */
    readonly confirm: (
      platform: Platform.Platform,
      externalAccountId: string,
      trust: boolean,
      request: TrustConfirmRequest
    ) => Effect.Effect<{ readonly trusted: boolean }, Failure | ScaRefused | AccountLocked>
    /** Fails 409 `BENEFICIARY_TRUSTED` while the account is trusted: what a deletion checks first. */
    readonly ensureDeletable: (
      platform: Platform.Platform,
      externalAccountId: string
    ) => Effect.Effect<void, BeneficiaryTrusted | StoreFailure.StoreFailure>
  }
>() {}

export const layer = Layer.effect(
  BeneficiaryTrust,
  Effect.gen(function* () {
    const proofs = yield* ScaProofs
    const repo = yield* ScaRepo
    const accounts = yield* ExternalAccountRepo.ExternalAccountRepo
    const store = yield* UnitOfWork.UnitOfWork

    // The account and its customer, when SCA applies to it.
    const ownerOf = (platform: Platform.Platform, externalAccountId: string) =>
      Effect.gen(function* () {
        const found = yield* accounts.findById(platform.id, externalAccountId as ExternalAccount.ExternalAccountId)
        if (Option.isNone(found)) return yield* ScaNotFound.of("beneficiary", externalAccountId)
        const customerId = found.value.customerId
        if (customerId === undefined) return yield* ScaConflict.of("sca_not_used", { externalAccountId })
        return yield* proofs.requireCustomer(platform, customerId)
      })

    const purposeOf = (trust: boolean): PendingChallenge.ChallengePurpose => (trust ? "TRUST" : "UNTRUST")

    const start = Effect.fn("BeneficiaryTrust.start")(function* (
      platform: Platform.Platform,
      externalAccountId: string,
      trust: boolean
    ) {
      const customer = yield* ownerOf(platform, externalAccountId)
      if ((yield* repo.isTrusted(platform.id, externalAccountId)) === trust) {
        return yield* ScaConflict.of(trust ? "beneficiary_already_trusted" : "beneficiary_not_trusted", {
          externalAccountId
        })
      }
      const challenge = yield* proofs.issue(platform, customer, {
        purpose: purposeOf(trust),
        subjectId: externalAccountId,
        factor: "SMS_OTP",
        availableFactors: yield* proofs.challengeFactors(platform, customer)
      })
      return { scaChallenge: PendingChallenge.viewOf(challenge) }
    })

    const confirm = Effect.fn("BeneficiaryTrust.confirm")(function* (
      platform: Platform.Platform,
      externalAccountId: string,
      trust: boolean,
      request: TrustConfirmRequest
    ) {
      const customer = yield* ownerOf(platform, externalAccountId)
      const purpose = purposeOf(trust)
      const challengeId = request.challengeId ?? undefined
      const found =
        challengeId === undefined
          ? yield* repo.findChallengeFor(platform.id, customer.id, purpose, externalAccountId)
          : Option.filter(
              yield* repo.findChallenge(platform.id, challengeId),
              (c) => c.customerId === customer.id && c.purpose === purpose && c.subjectId === externalAccountId
            )
      if (Option.isNone(found)) return yield* ScaConflict.of("no_pending_challenge", { externalAccountId })
      yield* proofs.verify(platform, found.value, request).pipe(Effect.catchTag("RateLimited", Effect.die))
      yield* store.transaction(
        Effect.gen(function* () {
          if (!(yield* repo.takeChallenge(platform.id, found.value.id))) {
            return yield* ScaConflict.of("no_pending_challenge", { externalAccountId })
          }
          yield* repo.setTrusted(platform.id, customer.id, externalAccountId, trust)
          yield* proofs.countSuccess(platform, customer.id)
        })
      )
      return { trusted: trust }
    })

    const ensureDeletable = (platform: Platform.Platform, externalAccountId: string) =>
      Effect.flatMap(repo.isTrusted(platform.id, externalAccountId), (trusted) =>
        trusted ? Effect.fail(BeneficiaryTrusted.of(externalAccountId)) : Effect.void
      )

    return BeneficiaryTrust.of({ start, confirm, ensureDeletable })
  })
)
