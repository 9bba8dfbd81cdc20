import { DateTime, Duration, Effect, Either, Option } from "effect"
import type { ExternalAccountRepo, InternalAccountRepo } from "../accounts/index.js"
import { CustomerRepo } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import { Ids, Outbox, ResourceId, UnitOfWork } from "../kernel/index.js"
import { type FxRateCache, type Quote, type Transaction, Transfers } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentRecord } from "./Agent.js"
import {
  AgentActionId,
  type AgentActionType,
  type AgentTransferDetails,
  type StoredAgentAction
} from "./AgentAction.js"
import * as AgentActionExpiryJob from "./AgentActionExpiryJob.js"
import { AgentActionRepo } from "./AgentActionRepo.js"
import * as AgentActionState from "./AgentActionState.js"
import * as AgentActionViews from "./AgentActionViews.js"
import * as AgentCalendar from "./AgentCalendar.js"
import type { AgentCaller } from "./AgentCaller.js"
import { AgentPolicyDenied } from "./AgentErrors.js"
import * as AgentPolicyDecision from "./AgentPolicyDecision.js"
import { AgentUsageRepo, type UsageCharge } from "./AgentUsageRepo.js"
import * as AgentScope from "./AgentScope.js"

/**
 * An agent's submission (a quote execution or a transfer), once its permission and accounts were checked: evaluated
 * against the policy as it stands, then executed at once (usage charge, payment and `APPROVED` action in one unit of
 * work, so concurrent submissions never pass a counting limit) or stored `PENDING_APPROVAL` with its expiry job and
 * its `AGENT_ACTION.PENDING_APPROVAL` webhook in one unit of work.
 */

/** How long a transfer waits for approval before it fails `APPROVAL_EXPIRED`. */
export const transferApprovalWindow = Duration.hours(24)

/** What a transfer's execution can be refused for. */
export type TransferError = Effect.Effect.Error<ReturnType<Transfers.Transfers["Type"]["transferOut"]>>

/** What evaluating and showing a submission reads besides the store's writes. */
export type Reads =
  | AgentActionViews.Requirements
  | FxRateCache.FxRateCache
  | InternalAccountRepo.InternalAccountRepo
  | ExternalAccountRepo.ExternalAccountRepo

/** The status `event` leads to from `state` (the pairs used here are all in the table). */
export const next = (state: AgentActionState.AgentActionState, event: AgentActionState.AgentActionEvent) =>
  Either.getOrThrow(AgentActionState.transition(state, event))

/** What one submission moves and how it executes. */
export interface Submission<E, R = never> {
  readonly type: AgentActionType
  /** The customer's internal account the policy's account rules apply to. */
  readonly accountId: string
  readonly amountMinor: bigint
  readonly currency: string
  readonly quoteId: Quote.QuoteId | undefined
  readonly transactionId: Transaction.TransactionId | undefined
  readonly transferDetails: StoredAgentAction["transferDetails"]
  readonly expiresAt: (now: DateTime.Utc) => DateTime.Utc
  /** Executes the payment (inside the submission's unit of work) and answers its transaction. */
  readonly execute: Effect.Effect<Transaction.TransactionId, E, R>
}

/** A transfer's execution for the agent: through `Transfers`, with `agentId` on its quote and transaction. */
export const executeTransfer = (
  platform: Platform.Platform,
  action: Pick<StoredAgentAction, "agentId" | "type">,
  details: NonNullable<StoredAgentAction["transferDetails"]>
): Effect.Effect<Transaction.TransactionId, TransferError, Transfers.Transfers> =>
  Effect.flatMap(Transfers.Transfers, (transfers) => {
    const options = { agentId: action.agentId }
    const transaction =
      action.type === "TRANSFER_IN"
        ? transfers.transferIn(
            platform,
            {
              source: { accountId: details.sourceAccountId },
              destination: { accountId: details.destinationAccountId },
              amount: details.amount
            },
            options
          )
        : transfers.transferOut(
            platform,
            {
              source: { accountId: details.sourceAccountId },
              destination: {
                accountId: details.destinationAccountId,
                ...(details.paymentRail === undefined ? {} : { paymentRail: details.paymentRail })
              },
              amount: details.amount
            },
            options
          )
    return Effect.map(transaction, (made) => made.id)
  })

/** The submission of a transfer the agent asked for, whose policy account is `internalAccountId`. */
export const transferSubmission = (
  caller: AgentCaller,
  type: "TRANSFER_OUT" | "TRANSFER_IN",
  details: AgentTransferDetails & { readonly paymentRail?: string },
  internalAccountId: string
): Submission<TransferError, Transfers.Transfers> => {
  return {
    type,
    accountId: internalAccountId,
    amountMinor: BigInt(details.amount),
    currency: details.currency,
    quoteId: undefined,
    transactionId: undefined,
    transferDetails: details,
    expiresAt: (now) => DateTime.addDuration(now, transferApprovalWindow),
    execute: executeTransfer(caller.platform, { agentId: caller.agent.id, type }, details)
  }
}

/** The submission steps, built on the store's ports (see the module's description). */
export const make = Effect.gen(function* () {
  const usage = yield* AgentUsageRepo
  const actions = yield* AgentActionRepo
  const customers = yield* CustomerRepo.CustomerRepo
  const store = yield* UnitOfWork.UnitOfWork
  const outbox = yield* Outbox.Outbox
  const jobs = yield* Jobs.Jobs
  const ids = yield* Ids.Ids
  const reads = yield* Effect.context<Reads>()
  const read = <A, E>(effect: Effect.Effect<A, E, Reads>): Effect.Effect<A, E> => Effect.provide(effect, reads)
  const view = (stored: StoredAgentAction) => read(AgentActionViews.view(stored))

  // Charges the usage counters, or refuses naming the limit that would be passed (read back to say which).
  const chargeOrRefuse = (platform: Platform.Platform, agent: AgentRecord, charge: UsageCharge) =>
    Effect.gen(function* () {
      const charged = yield* usage.charge(platform.id, agent.id, charge)
      if (charged !== undefined) return
      const current = yield* usage.current(platform.id, agent.id, charge)
      return yield* Effect.fail(
        AgentPolicyDecision.usageRefusal(charge, current, agent.policy.spendingLimits.currency) ??
          AgentPolicyDenied.of("daily_limit", { currency: agent.policy.spendingLimits.currency })
      )
    })

  const platformCustomerIdOf = (platform: Platform.Platform, agent: AgentRecord) =>
    Effect.map(customers.findById(platform.id, agent.customerId), (found) =>
      Option.match(found, { onNone: () => "", onSome: (stored) => stored.customer.platformCustomerId })
    )

  // Evaluates a submission and executes it at once (charge, execution and APPROVED action in one unit of work),
  // or stores it PENDING_APPROVAL with its expiry job and webhook in one unit of work.
  const submit = <E, R>(caller: AgentCaller, submission: Submission<E, R>) =>
    Effect.gen(function* () {
      const { agent, platform } = caller
      const evaluated = yield* read(
        AgentScope.evaluate(agent, submission.accountId, submission.amountMinor, submission.currency)
      )
      if (evaluated.decision._tag === "Deny") return yield* Effect.fail(evaluated.decision.error)
      const now = yield* DateTime.now
      const charge = AgentPolicyDecision.chargeOf(agent.policy, AgentCalendar.periodOf(now), evaluated.amountMinor)
      const base: StoredAgentAction = {
        id: AgentActionId.make(ResourceId.format("AgentAction", yield* ids.uuid)),
        platformId: platform.id,
        agentId: agent.id,
        customerId: agent.customerId,
        platformCustomerId: yield* platformCustomerIdOf(platform, agent),
        status: "PENDING_APPROVAL",
        type: submission.type,
        quoteId: submission.quoteId,
        transferDetails: submission.transferDetails,
        transactionId: submission.transactionId,
        executed: false,
        rejectionReason: undefined,
        failureReason: undefined,
        expiresAt: submission.expiresAt(now),
        createdAt: now,
        updatedAt: now
      }
      if (evaluated.decision._tag === "Execute") {
        const executed = yield* store.transaction(
          Effect.gen(function* () {
            yield* chargeOrRefuse(platform, agent, charge)
            const transactionId = yield* submission.execute
            const stored: StoredAgentAction = {
              ...base,
              status: next("NONE", "SUBMIT_ELIGIBLE"),
              transactionId,
              executed: true
            }
            yield* actions.insert(stored)
            return stored
          })
        )
        return yield* view(executed)
      }
      // Held for approval: refused now if it could not pass the counting limits even if approved at once.
      const refusal = AgentPolicyDecision.usageRefusal(
        charge,
        yield* usage.current(platform.id, agent.id, charge),
        agent.policy.spendingLimits.currency
      )
      if (refusal !== undefined) return yield* Effect.fail(refusal)
      return yield* store.transaction(
        Effect.gen(function* () {
          const stored: StoredAgentAction = { ...base, status: next("NONE", "SUBMIT_NEEDS_APPROVAL") }
          yield* actions.insert(stored)
          yield* jobs.enqueue(AgentActionExpiryJob.newJob(platform.id, stored.id, stored.expiresAt))
          const action = yield* view(stored)
          yield* outbox.append(
            yield* AgentActionViews.pendingApproval(stored, action).pipe(Effect.provideService(Ids.Ids, ids))
          )
          return action
        })
      )
    })

  return { submit, chargeOrRefuse }
})
