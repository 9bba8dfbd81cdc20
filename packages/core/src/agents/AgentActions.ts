import { Context, Data, DateTime, Duration, Effect, Either, Layer, Option } from "effect"
import type { ExternalAccountRepo, InternalAccountRepo } from "../accounts/index.js"
import { CustomerRepo } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import {
  Ids,
  type InvalidInput,
  Outbox,
  type Page,
  ResourceId,
  type StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import {
  type FxRateCache,
  PaymentErrors,
  type PricingErrors,
  type Quote,
  QuoteLifetime,
  type QuoteRequest,
  QuoteRepo,
  Quotes,
  type Transaction,
  TransactionRepo,
  type TransferRequest,
  Transfers
} from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentId, AgentRecord } from "./Agent.js"
import {
  type AgentAction,
  type AgentActionFailureReason,
  type AgentActionFilter,
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
import {
  AgentActionNotFound,
  AgentActionNotPending,
  AgentNotFound,
  type AgentPermissionDenied,
  AgentPolicyDenied
} from "./AgentErrors.js"
import * as AgentPolicyDecision from "./AgentPolicyDecision.js"
import { AgentRepo } from "./AgentRepo.js"
import { AgentUsageRepo, type UsageCharge } from "./AgentUsageRepo.js"
import * as AgentScope from "./AgentScope.js"

type QuoteCreateError = Effect.Effect.Error<ReturnType<Quotes.Quotes["Type"]["create"]>>
type QuoteExecuteError = Effect.Effect.Error<ReturnType<Quotes.Quotes["Type"]["execute"]>>
type TransferError = Effect.Effect.Error<ReturnType<Transfers.Transfers["Type"]["transferOut"]>>

/** Refusals of an agent's submission: its permission, its policy, and the payment's own refusals. */
type SubmitError = AgentPermissionDenied | AgentPolicyDenied | InvalidInput.InvalidInput | StoreFailure.StoreFailure

/**
 * What agents do, under their policies, and the platform's decisions on what waits for it.
 *
 * A submission is evaluated against the policy as it stands (permission, account, per-transaction limit,
 * execution mode and approval threshold; amounts converted to the limits' currency at the current rate). An
 * eligible one executes at once: its usage charge (`AgentUsageRepo.charge`, guarded), its execution and its
 * `APPROVED` action commit in one unit of work, so concurrent actions never pass a daily, monthly or count limit.
 * Anything else is stored `PENDING_APPROVAL`, with the `AGENT_ACTION.PENDING_APPROVAL` webhook (the full action) in
 * the same unit of work. Approving re-evaluates under the latest state and executes (`APPROVED`), or fails the
 * action with its reason (`FAILED`: agent paused or deleted, policy now refusing, quote expired, payment refused).
 * A pending action that reaches `expiresAt` fails by a job.
 */
export class AgentActions extends Context.Tag("@payrail/core/AgentActions")<
  AgentActions,
  {
    /** `POST /agents/me/quotes` (`CREATE_QUOTES`): a quote for the agent's customer, from an allowed account. */
    readonly createQuote: (
      caller: AgentCaller,
      request: QuoteRequest.CreateQuoteRequest
    ) => Effect.Effect<Quote.Quote, SubmitError | QuoteCreateError>
    /** `GET /agents/me/quotes/{id}`: a quote this agent created (another's is 404). */
    readonly getQuote: (
      caller: AgentCaller,
      id: Quote.QuoteId
    ) => Effect.Effect<Quote.Quote, PaymentErrors.QuoteNotFound | StoreFailure.StoreFailure>
    /** `POST /agents/me/quotes/{id}/execute` (`EXECUTE_QUOTES`): executes or submits for approval. */
    readonly executeQuote: (
      caller: AgentCaller,
      id: Quote.QuoteId
    ) => Effect.Effect<AgentAction, SubmitError | QuoteExecuteError | PricingErrors.QuoteRateUnavailable>
    /** `POST /agents/me/transfer-out` (`CREATE_TRANSFERS`): from one of the customer's internal accounts. */
    readonly transferOut: (
      caller: AgentCaller,
      request: TransferRequest.TransferOutRequest
    ) => Effect.Effect<AgentAction, SubmitError | TransferError>
    /** `POST /agents/me/transfer-in` (`CREATE_TRANSFERS`): into one of the customer's internal accounts. */
    readonly transferIn: (
      caller: AgentCaller,
      request: TransferRequest.TransferInRequest
    ) => Effect.Effect<AgentAction, SubmitError | TransferError>
    /** `GET /agents/me/actions/{id}`: one of the calling agent's actions. */
    readonly getOwn: (
      caller: AgentCaller,
      id: AgentActionId
    ) => Effect.Effect<AgentAction, AgentActionNotFound | StoreFailure.StoreFailure>
    /** `GET /agents/me/actions`: the calling agent's actions, newest first. */
    readonly listOwn: (
      caller: AgentCaller,
      filter: AgentActionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<AgentAction>, StoreFailure.StoreFailure>
    /** `GET /agents/approvals`: the platform's actions matching `filter` (every status unless `filter.status`). */
    readonly listApprovals: (
      platform: Platform.Platform,
      filter: AgentActionFilter,
      page: Page.PageRequest,
      sortOrder: "asc" | "desc"
    ) => Effect.Effect<Page.Page<AgentAction>, StoreFailure.StoreFailure>
    /**
     * Approves a pending action of this agent: it executes (`APPROVED`, with its transaction) or fails with its
     * reason (`FAILED`). 409 when it is no longer pending (a repeated decision), 404 when unknown.
     */
    readonly approve: (
      platform: Platform.Platform,
      agentId: AgentId,
      actionId: AgentActionId
    ) => Effect.Effect<
      AgentAction,
      AgentNotFound | AgentActionNotFound | AgentActionNotPending | StoreFailure.StoreFailure
    >
    /** Rejects a pending action (`REJECTED`, the optional reason stored). 409 when no longer pending. */
    readonly reject: (
      platform: Platform.Platform,
      agentId: AgentId,
      actionId: AgentActionId,
      reason: string | undefined
    ) => Effect.Effect<
      AgentAction,
      AgentNotFound | AgentActionNotFound | AgentActionNotPending | StoreFailure.StoreFailure
    >
    /**
     * `POST /transactions/{id}/approve`: approves the pending agent action whose transaction this is, as `approve`
     * does, and answers the transaction. 404 for an unknown transaction, 409 when it has no pending agent action.
     */
    readonly approveTransaction: (
      platform: Platform.Platform,
      transactionId: Transaction.TransactionId
    ) => Effect.Effect<
      Transaction.Transaction,
      PaymentErrors.TransactionNotFound | AgentActionNotPending | StoreFailure.StoreFailure
    >
  }
>() {}

/** A usage charge the limits refused at approval (the action fails `POLICY_DENIED`). */
class UsageRefused extends Data.TaggedError("UsageRefused") {}

/** How long a transfer waits for approval before it fails `APPROVAL_EXPIRED`. */
export const transferApprovalWindow = Duration.hours(24)

/** What the layer reads besides its own ports: views, rates and the customer's accounts. */
type Reads =
  | AgentActionViews.Requirements
  | FxRateCache.FxRateCache
  | InternalAccountRepo.InternalAccountRepo
  | ExternalAccountRepo.ExternalAccountRepo

const next = (state: AgentActionState.AgentActionState, event: AgentActionState.AgentActionEvent) =>
  Either.getOrThrow(AgentActionState.transition(state, event))

/** What one submission moves and how it executes. */
interface Submission<E> {
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
  readonly execute: Effect.Effect<Transaction.TransactionId, E>
}

export const layer = Layer.effect(
  AgentActions,
  Effect.gen(function* () {
    const agents = yield* AgentRepo
    const usage = yield* AgentUsageRepo
    const actions = yield* AgentActionRepo
    const quotes = yield* Quotes.Quotes
    const transfers = yield* Transfers.Transfers
    const quoteRepo = yield* QuoteRepo.QuoteRepo
    const transactionRepo = yield* TransactionRepo.TransactionRepo
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
    const submit = <E>(caller: AgentCaller, submission: Submission<E>) =>
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
          : executeTransfer(platform, action, details!)
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

    const executeTransfer = (
      platform: Platform.Platform,
      action: StoredAgentAction,
      details: NonNullable<StoredAgentAction["transferDetails"]>
    ): Effect.Effect<Transaction.TransactionId, TransferError> => {
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
    }

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
    const decide = (
      platform: Platform.Platform,
      action: StoredAgentAction,
      decision: { readonly _tag: "Approve" } | { readonly _tag: "Reject"; readonly reason: string | undefined }
    ) =>
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

    // The action of this agent (404 for an unknown agent, or an action of another agent).
    const actionOf = (platform: Platform.Platform, agentId: AgentId, actionId: AgentActionId) =>
      Effect.gen(function* () {
        const found = yield* actions.findById(platform.id, actionId)
        if (Option.isSome(found) && found.value.agentId === agentId) return found.value
        if (Option.isNone(yield* agents.findById(platform.id, agentId))) return yield* AgentNotFound.of(agentId)
        return yield* AgentActionNotFound.of(actionId)
      })

    // The agent's own quote (another's, or the platform's, is 404).
    const ownQuote = (caller: AgentCaller, id: Quote.QuoteId) =>
      Effect.flatMap(quotes.get(caller.platform, id), (quote) =>
        quote.agentId === caller.agent.id ? Effect.succeed(quote) : Effect.fail(PaymentErrors.QuoteNotFound.of(id))
      )

    const transferSubmission = (
      caller: AgentCaller,
      type: "TRANSFER_OUT" | "TRANSFER_IN",
      details: AgentTransferDetails & { readonly paymentRail?: string },
      internalAccountId: string
    ): Submission<TransferError> => {
      const action = { agentId: caller.agent.id, type } as StoredAgentAction
      return {
        type,
        accountId: internalAccountId,
        amountMinor: BigInt(details.amount),
        currency: details.currency,
        quoteId: undefined,
        transactionId: undefined,
        transferDetails: details,
        expiresAt: (now) => DateTime.addDuration(now, transferApprovalWindow),
        execute: executeTransfer(caller.platform, action, details)
      }
    }

    return AgentActions.of({
      createQuote: Effect.fn("AgentActions.createQuote")(function* (
        caller: AgentCaller,
        request: QuoteRequest.CreateQuoteRequest
      ) {
        const { agent, platform } = caller
        yield* AgentScope.requirePermission(caller, "CREATE_QUOTES")
        if (request.source.sourceType !== "ACCOUNT" || !AgentScope.isInternal(request.source.accountId)) {
          return yield* AgentScope.invalid("source.accountId", "must be an internal account of the agent's customer")
        }
        if (request.immediatelyExecute === true) {
          return yield* AgentScope.invalid(
            "immediatelyExecute",
            "is not taken from an agent: execute the quote, which the agent's policy governs"
          )
        }
        if (request.platformFeeOverride !== undefined) {
          return yield* AgentScope.invalid("platformFeeOverride", "is set by the platform, not by an agent")
        }
        const sourceAccountId = request.source.accountId
        yield* read(AgentScope.ownInternalAccount(platform, agent.customerId, sourceAccountId))
        if (request.destination.destinationType === "ACCOUNT") {
          yield* read(AgentScope.ownAccount(platform, agent.customerId, request.destination.accountId))
        }
        const allowed = agent.policy.accountRestrictions?.allowedAccountIds
        if (allowed !== undefined && allowed !== null && !allowed.some((id) => id === sourceAccountId)) {
          return yield* AgentPolicyDenied.of("account_not_allowed", { accountId: sourceAccountId })
        }
        return yield* quotes.create(platform, request, { purpose: "QUOTE", agentId: agent.id })
      }),
      getQuote: Effect.fn("AgentActions.getQuote")(function* (caller: AgentCaller, id: Quote.QuoteId) {
        return yield* ownQuote(caller, id)
      }),
      executeQuote: Effect.fn("AgentActions.executeQuote")(function* (caller: AgentCaller, id: Quote.QuoteId) {
        yield* AgentScope.requirePermission(caller, "EXECUTE_QUOTES")
        const quote = yield* ownQuote(caller, id)
        const now = yield* DateTime.now
        if (QuoteLifetime.hasLapsed(quote, now)) {
          return yield* PaymentErrors.QuoteExpired.of(quote.id, DateTime.formatIso(quote.expiresAt))
        }
        if (quote.status !== "PENDING" || quote.source.sourceType !== "ACCOUNT") {
          return yield* PaymentErrors.QuoteTransitionRefused.of(quote.id, quote.status, "EXECUTE")
        }
        // A quote already submitted (and waiting, or decided) is not submitted twice.
        const earlier = yield* actions.findByTransactionId(caller.platform.id, quote.transactionId)
        if (Option.isSome(earlier)) {
          return yield* PaymentErrors.QuoteTransitionRefused.of(quote.id, earlier.value.status, "EXECUTE")
        }
        const sourceAccountId = quote.source.accountId
        return yield* submit(caller, {
          type: "EXECUTE_QUOTE",
          accountId: sourceAccountId,
          amountMinor: BigInt(quote.totalSendingAmount),
          currency: quote.sendingCurrency.code,
          quoteId: quote.id,
          transactionId: quote.transactionId,
          transferDetails: undefined,
          expiresAt: () => quote.expiresAt,
          execute: Effect.map(quotes.execute(caller.platform, quote.id), (executed) => executed.transactionId)
        })
      }),
      transferOut: Effect.fn("AgentActions.transferOut")(function* (
        caller: AgentCaller,
        request: TransferRequest.TransferOutRequest
      ) {
        const { agent, platform } = caller
        yield* AgentScope.requirePermission(caller, "CREATE_TRANSFERS")
        if (request.amount === undefined) return yield* AgentScope.invalid("amount", "is required for an agent")
        if (!AgentScope.isInternal(request.source.accountId)) {
          return yield* AgentScope.invalid("source.accountId", "must be an internal account of the agent's customer")
        }
        if (AgentScope.isInternal(request.destination.accountId)) {
          return yield* AgentScope.invalid("destination.accountId", "must be an external account")
        }
        const source = yield* read(AgentScope.ownInternalAccount(platform, agent.customerId, request.source.accountId))
        yield* read(AgentScope.ownExternalAccount(platform, agent.customerId, request.destination.accountId))
        const details = {
          amount: request.amount,
          currency: source.currency,
          sourceAccountId: request.source.accountId,
          destinationAccountId: request.destination.accountId,
          ...(request.destination.paymentRail === undefined ? {} : { paymentRail: request.destination.paymentRail })
        }
        return yield* submit(caller, transferSubmission(caller, "TRANSFER_OUT", details, source.id))
      }),
      transferIn: Effect.fn("AgentActions.transferIn")(function* (
        caller: AgentCaller,
        request: TransferRequest.TransferInRequest
      ) {
        const { agent, platform } = caller
        yield* AgentScope.requirePermission(caller, "CREATE_TRANSFERS")
        if (request.amount === undefined) return yield* AgentScope.invalid("amount", "is required for an agent")
        if (AgentScope.isInternal(request.source.accountId)) {
          return yield* AgentScope.invalid("source.accountId", "must be an external account that can be pulled")
        }
        if (!AgentScope.isInternal(request.destination.accountId)) {
          return yield* AgentScope.invalid(
            "destination.accountId",
            "must be an internal account of the agent's customer"
          )
        }
        yield* read(AgentScope.ownExternalAccount(platform, agent.customerId, request.source.accountId))
        const destination = yield* read(
          AgentScope.ownInternalAccount(platform, agent.customerId, request.destination.accountId)
        )
        const details = {
          amount: request.amount,
          currency: destination.currency,
          sourceAccountId: request.source.accountId,
          destinationAccountId: request.destination.accountId
        }
        return yield* submit(caller, transferSubmission(caller, "TRANSFER_IN", details, destination.id))
      }),
      getOwn: Effect.fn("AgentActions.getOwn")(function* (caller: AgentCaller, id: AgentActionId) {
        const found = yield* actions.findById(caller.platform.id, id)
        if (Option.isNone(found) || found.value.agentId !== caller.agent.id) return yield* AgentActionNotFound.of(id)
        return yield* view(found.value)
      }),
      listOwn: Effect.fn("AgentActions.listOwn")(function* (
        caller: AgentCaller,
        filter: AgentActionFilter,
        page: Page.PageRequest
      ) {
        const stored = yield* actions.list(caller.platform.id, { ...filter, agentId: caller.agent.id }, page, "desc")
        return yield* read(AgentActionViews.viewPage(stored))
      }),
      listApprovals: Effect.fn("AgentActions.listApprovals")(function* (
        platform: Platform.Platform,
        filter: AgentActionFilter,
        page: Page.PageRequest,
        sortOrder: "asc" | "desc"
      ) {
        return yield* read(AgentActionViews.viewPage(yield* actions.list(platform.id, filter, page, sortOrder)))
      }),
      approve: Effect.fn("AgentActions.approve")(function* (
        platform: Platform.Platform,
        agentId: AgentId,
        actionId: AgentActionId
      ) {
        const action = yield* actionOf(platform, agentId, actionId)
        return yield* view(yield* decide(platform, action, { _tag: "Approve" }))
      }),
      reject: Effect.fn("AgentActions.reject")(function* (
        platform: Platform.Platform,
        agentId: AgentId,
        actionId: AgentActionId,
        reason: string | undefined
      ) {
        const action = yield* actionOf(platform, agentId, actionId)
        return yield* view(yield* decide(platform, action, { _tag: "Reject", reason }))
      }),
      approveTransaction: Effect.fn("AgentActions.approveTransaction")(function* (
        platform: Platform.Platform,
        transactionId: Transaction.TransactionId
      ) {
        if (Option.isNone(yield* transactionRepo.findById(platform.id, transactionId))) {
          return yield* PaymentErrors.TransactionNotFound.of(transactionId)
        }
        const action = yield* actions.findByTransactionId(platform.id, transactionId)
        if (Option.isNone(action)) return yield* AgentActionNotPending.of(transactionId, "NONE")
        yield* decide(platform, action.value, { _tag: "Approve" })
        const stored = yield* transactionRepo.findById(platform.id, transactionId)
        return yield* Option.match(stored, {
          onNone: () => Effect.fail(PaymentErrors.TransactionNotFound.of(transactionId)),
          onSome: (found) => Effect.succeed(found.transaction)
        })
      })
    })
  })
)

const isStoreFailure = (failure: unknown): failure is StoreFailure.StoreFailure =>
  typeof failure === "object" && failure !== null && "_tag" in failure && failure._tag === "StoreFailure"
