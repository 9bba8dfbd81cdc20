import { Data, DateTime, Effect, Either, Option } from "effect"
import { type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { QuoteLifetime, QuoteRepo, Quotes, type Transaction, type Transfers } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentActionFailureReason, StoredAgentAction } from "./AgentAction.js"
import { AgentActionRepo } from "./AgentActionRepo.js"
import * as AgentCalendar from "./AgentCalendar.js"
import { AgentActionNotPending } from "./AgentErrors.js"
import * as AgentPolicyDecision from "./AgentPolicyDecision.js"
import { AgentRepo } from "./AgentRepo.js"
import * as AgentScope from "./AgentScope.js"
import { executeTransfer, next, type Reads } from "./AgentSubmission.js"
import { AgentUsageRepo } from "./AgentUsageRepo.js"

/**
 * The platform's decision on a pending action. Approving re-reads the agent, its policy, its usage and the quote,
 * and executes (`APPROVED`) or fails the action with its reason (`FAILED`): the agent paused or deleted
 * (`AGENT_INACTIVE`), the policy now refusing or the limits consumed (`POLICY_DENIED`), the quote expired
 * (`QUOTE_EXPIRED`), a transfer's window over (`APPROVAL_EXPIRED`), the payment refused (`EXECUTION_FAILED`, in a
 * savepoint: nothing moves, nothing is counted). Every decision first claims the action by a guarded write from
 * `PENDING_APPROVAL`, so of concurrent decisions exactly one applies and the others get 409.
 */

/** A usage charge the limits refused at approval (the action fails `POLICY_DENIED`). */
class UsageRefused extends Data.TaggedError("UsageRefused") {}

const isStoreFailure = (failure: unknown): failure is StoreFailure.StoreFailure =>
  typeof failure === "object" && failure !== null && "_tag" in failure && failure._tag === "StoreFailure"

/** Approve, or reject with an optional reason. */
export type Decision = { readonly _tag: "Approve" } | { readonly _tag: "Reject"; readonly reason: string | undefined }

/** The decision step, built on the store's ports and the payments (see the module's description). */
export const make = Effect.gen(function* () {
  const agents = yield* AgentRepo
  const usage = yield* AgentUsageRepo
  const actions = yield* AgentActionRepo
  const quotes = yield* Quotes.Quotes
  const quoteRepo = yield* QuoteRepo.QuoteRepo
  const store = yield* UnitOfWork.UnitOfWork
  const reads = yield* Effect.context<Reads | Transfers.Transfers>()
  const read = <A, E>(effect: Effect.Effect<A, E, Reads | Transfers.Transfers>): Effect.Effect<A, E> =>
    Effect.provide(effect, reads)

  // What an approval executes, under the latest agent, policy, usage and quote: the transaction, or why not.
  const attempt = (platform: Platform.Platform, action: StoredAgentAction, now: DateTime.Utc) =>
    Effect.gen(function* () {
      const fail = (reason: AgentActionFailureReason) => Effect.succeed(Either.left(reason))
      const agent = yield* agents.findById(platform.id, action.agentId)
      if (Option.isNone(agent) || agent.value.isPaused) return yield* fail("AGENT_INACTIVE")
      const quote =
        action.quoteId === undefined ? Option.none() : yield* quoteRepo.findById(platform.id, action.quoteId)
      const details = action.transferDetails
      const moved = Option.isSome(quote)
        ? {
            accountId: quote.value.source.sourceType === "ACCOUNT" ? quote.value.source.accountId : "",
            amount: BigInt(quote.value.totalSendingAmount),
            currency: quote.value.sendingCurrency.code
          }
        : details !== undefined
          ? {
              accountId: action.type === "TRANSFER_IN" ? details.destinationAccountId : details.sourceAccountId,
              amount: BigInt(details.amount),
              currency: details.currency
            }
          : undefined
      if (moved === undefined) return yield* fail("EXECUTION_FAILED")
      const evaluated = yield* Effect.either(
        read(AgentScope.evaluate(agent.value, moved.accountId, moved.amount, moved.currency))
      )
      if (Either.isLeft(evaluated)) return yield* fail("EXECUTION_FAILED")
      if (evaluated.right.decision._tag === "Deny") return yield* fail("POLICY_DENIED")
      if (Option.isSome(quote) && QuoteLifetime.hasLapsed(quote.value, now)) return yield* fail("QUOTE_EXPIRED")
      if (Option.isNone(quote) && DateTime.greaterThanOrEqualTo(now, action.expiresAt)) {
        return yield* fail("APPROVAL_EXPIRED")
      }
      const charge = AgentPolicyDecision.chargeOf(
        agent.value.policy,
        AgentCalendar.periodOf(now),
        evaluated.right.amountMinor
      )
      const execute: Effect.Effect<Transaction.TransactionId, unknown> = Option.isSome(quote)
        ? Effect.map(quotes.execute(platform, quote.value.id), (executed) => executed.transactionId)
        : read(executeTransfer(platform, action, details!))
      const executed = yield* store
        .transaction(
          Effect.gen(function* () {
            if ((yield* usage.charge(platform.id, action.agentId, charge)) === undefined) {
              return yield* new UsageRefused()
            }
            return yield* execute
          })
        )
        .pipe(
          Effect.map((transactionId) => Either.right<Transaction.TransactionId>(transactionId)),
          Effect.catchAll((failure) =>
            failure instanceof UsageRefused
              ? fail("POLICY_DENIED")
              : isStoreFailure(failure)
                ? Effect.fail(failure)
                : fail("EXECUTION_FAILED")
          )
        )
      return executed
    })

  const notPending = (platform: Platform.Platform, action: StoredAgentAction) =>
    Effect.flatMap(actions.findById(platform.id, action.id), (latest) =>
      Effect.fail(
        AgentActionNotPending.of(
          action.id,
          Option.getOrElse(
            Option.map(latest, (found) => found.status),
            () => action.status
          )
        )
      )
    )

  // Decides a pending action, in one unit of work that first claims it (a guarded write from PENDING_APPROVAL,
  // holding it against a concurrent decision), so that of concurrent decisions exactly one applies.
  const decide = (platform: Platform.Platform, action: StoredAgentAction, decision: Decision) =>
    store.transaction(
      Effect.gen(function* () {
        if (action.status !== "PENDING_APPROVAL") return yield* notPending(platform, action)
        const now = yield* DateTime.now
        if (!(yield* actions.transition("PENDING_APPROVAL", { ...action, updatedAt: now }))) {
          return yield* notPending(platform, action)
        }
        let decided: StoredAgentAction
        if (decision._tag === "Reject") {
          decided = {
            ...action,
            status: next(action.status, "REJECT"),
            rejectionReason: decision.reason,
            updatedAt: now
          }
        } else {
          const outcome = yield* attempt(platform, action, now)
          decided = Either.isRight(outcome)
            ? {
                ...action,
                status: next(action.status, "APPROVE_EXECUTED"),
                transactionId: outcome.right,
                executed: true,
                updatedAt: now
              }
            : {
                ...action,
                status: next(action.status, "APPROVE_IMPOSSIBLE"),
                failureReason: outcome.left,
                updatedAt: now
              }
        }
        if (!(yield* actions.transition("PENDING_APPROVAL", decided))) return yield* notPending(platform, action)
        return decided
      })
    )

  return { decide }
})
