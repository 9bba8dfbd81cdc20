import { Effect, Option } from "effect"
import { AccountErrors, ExternalAccountRepo, InternalAccountRepo, type InternalAccount } from "../accounts/index.js"
import type { ExternalAccount } from "../accounts/index.js"
import type { Customer } from "../customers/index.js"
import { InvalidInput, type StoreFailure } from "../kernel/index.js"
import { type FxRateCache, PaymentPosting, type PricingErrors } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentRecord } from "./Agent.js"
import * as AgentPolicyDecision from "./AgentPolicyDecision.js"
import * as PolicyCurrency from "./PolicyCurrency.js"

/**
 * What an agent may touch: its customer's accounts only (another customer's, or the platform's, are 404 to it, as
 * if they did not exist), and only what its policy's permissions grant (403 otherwise).
 */

/** Whether an account id names an internal account (by its prefix): the payments context's own test. */
export const isInternal: (accountId: string) => boolean = PaymentPosting.isInternalAccountId

/** The internal account `accountId` of the agent's customer; 404 for any other (another customer's, the platform's). */
export const ownInternalAccount = (
  platform: Platform.Platform,
  customerId: Customer.CustomerId,
  accountId: string
): Effect.Effect<
  InternalAccount.InternalAccount,
  AccountErrors.InternalAccountNotFound | StoreFailure.StoreFailure,
  InternalAccountRepo.InternalAccountRepo
> =>
  Effect.flatMap(InternalAccountRepo.InternalAccountRepo, (repo) =>
    repo.findById(platform.id, accountId as InternalAccount.InternalAccountId)
  ).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.customerId === customerId
        ? Effect.succeed(found.value)
        : Effect.fail(AccountErrors.InternalAccountNotFound.of(accountId))
    )
  )

/** The external account `accountId` of the agent's customer; 404 for any other. */
export const ownExternalAccount = (
  platform: Platform.Platform,
  customerId: Customer.CustomerId,
  accountId: string
): Effect.Effect<
  ExternalAccount.ExternalAccount,
  AccountErrors.ExternalAccountNotFound | StoreFailure.StoreFailure,
  ExternalAccountRepo.ExternalAccountRepo
> =>
  Effect.flatMap(ExternalAccountRepo.ExternalAccountRepo, (repo) =>
    repo.findById(platform.id, accountId as ExternalAccount.ExternalAccountId)
  ).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.customerId === customerId
        ? Effect.succeed(found.value)
        : Effect.fail(AccountErrors.ExternalAccountNotFound.of(accountId))
    )
  )

/** Any account (internal or external, by its id) of the agent's customer; 404 for any other. */
export const ownAccount = (
  platform: Platform.Platform,
  customerId: Customer.CustomerId,
  accountId: string
): Effect.Effect<
  void,
  AccountErrors.InternalAccountNotFound | AccountErrors.ExternalAccountNotFound | StoreFailure.StoreFailure,
  InternalAccountRepo.InternalAccountRepo | ExternalAccountRepo.ExternalAccountRepo
> =>
  isInternal(accountId)
    ? Effect.asVoid(ownInternalAccount(platform, customerId, accountId))
    : Effect.asVoid(ownExternalAccount(platform, customerId, accountId))

/** A field error of the agent's request. */
export const invalid = (field: string, message: string): InvalidInput.InvalidInput =>
  InvalidInput.InvalidInput.onField(field, message)

/** A submission evaluated: the amount in the limits' currency and the policy's verdict. */
export interface Evaluated {
  readonly amountMinor: bigint
  readonly decision: AgentPolicyDecision.Decision
}

/**
 * Evaluates moving `amountMinor` of `currency` from `accountId` under the agent's policy as it stands, converting
 * the amount (rounded up) and the approval threshold (rounded down) into the limits' currency at the current
 * mid-market rate.
 */
export const evaluate = (
  agent: Pick<AgentRecord, "isPaused" | "policy">,
  accountId: string,
  amountMinor: bigint,
  currency: string
): Effect.Effect<Evaluated, PricingErrors.QuoteRateUnavailable, FxRateCache.FxRateCache> =>
  Effect.gen(function* () {
    const policyCurrency = agent.policy.spendingLimits.currency
    const amount = yield* PolicyCurrency.toPolicyCurrency(amountMinor, currency, policyCurrency)
    const threshold = agent.policy.approvalThresholds
    const thresholdMinor =
      threshold?.amount === undefined || threshold.amount === null || threshold.currency === undefined
        ? undefined
        : PolicyCurrency.applyRoundingDown(
            BigInt(threshold.amount),
            yield* PolicyCurrency.conversion(threshold.currency, policyCurrency)
          )
    return {
      amountMinor: amount,
      decision: AgentPolicyDecision.evaluate({
        isPaused: agent.isPaused,
        policy: agent.policy,
        accountId,
        amountMinor: amount,
        thresholdMinor
      })
    }
  })
