import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { InvalidInput, Page, StoreFailure } from "../kernel/index.js"
import {
  PaymentErrors,
  type PricingErrors,
  type Quote,
  QuoteLifetime,
  type QuoteRequest,
  Quotes,
  type Transaction,
  TransactionRepo,
  type TransferRequest,
  type Transfers
} from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentId } from "./Agent.js"
import type { AgentAction, AgentActionFilter, AgentActionId, StoredAgentAction } from "./AgentAction.js"
import { AgentActionRepo } from "./AgentActionRepo.js"
import * as AgentActionViews from "./AgentActionViews.js"
import * as AgentApproval from "./AgentApproval.js"
import { type AgentCaller, requirePermission } from "./AgentCaller.js"
import {
  AgentActionNotFound,
  AgentActionNotPending,
  TransactionNotPendingApproval,
  AgentNotFound,
  type AgentPermissionDenied,
  AgentPolicyDenied
} from "./AgentErrors.js"
import { AgentRepo } from "./AgentRepo.js"
import * as AgentScope from "./AgentScope.js"
import * as AgentSubmission from "./AgentSubmission.js"
import * as AgentTransfers from "./AgentTransfers.js"

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
      PaymentErrors.TransactionNotFound | TransactionNotPendingApproval | StoreFailure.StoreFailure
    >
  }
>() {}

/**
 * `AgentActions` on the store's ports and the payments (`Quotes`, `Transfers`): submissions evaluated and executed
 * or held (`AgentSubmission`), decisions taken once (`AgentApproval`), views composed with the current quote and
 * transaction (`AgentActionViews`).
 */
export const layer = Layer.effect(
  AgentActions,
  Effect.gen(function* () {
    const agents = yield* AgentRepo
    const actions = yield* AgentActionRepo
    const quotes = yield* Quotes.Quotes
    const transactionRepo = yield* TransactionRepo.TransactionRepo
    const reads = yield* Effect.context<AgentSubmission.Reads | Transfers.Transfers>()
    const read = <A, E>(
      effect: Effect.Effect<A, E, AgentSubmission.Reads | Transfers.Transfers>
    ): Effect.Effect<A, E> => Effect.provide(effect, reads)
    const view = (stored: StoredAgentAction) => read(AgentActionViews.view(stored))
    const { submit } = yield* AgentSubmission.make
    const { decide } = yield* AgentApproval.make

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

    return AgentActions.of({
      createQuote: Effect.fn("AgentActions.createQuote")(function* (
        caller: AgentCaller,
        request: QuoteRequest.CreateQuoteRequest
      ) {
        const { agent, platform } = caller
        yield* requirePermission(caller, "CREATE_QUOTES")
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
        yield* requirePermission(caller, "EXECUTE_QUOTES")
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
        return yield* read(submit(caller, yield* read(AgentTransfers.outOf(caller, request))))
      }),
      transferIn: Effect.fn("AgentActions.transferIn")(function* (
        caller: AgentCaller,
        request: TransferRequest.TransferInRequest
      ) {
        return yield* read(submit(caller, yield* read(AgentTransfers.inOf(caller, request))))
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
        if (Option.isNone(action)) return yield* TransactionNotPendingApproval.of(transactionId, "NONE")
        yield* decide(platform, action.value, { _tag: "Approve" }).pipe(
          Effect.catchTag("AgentActionNotPending", (refused) =>
            Effect.fail(TransactionNotPendingApproval.of(transactionId, refused.details.status))
          )
        )
        const stored = yield* transactionRepo.findById(platform.id, transactionId)
        return yield* Option.match(stored, {
          onNone: () => Effect.fail(PaymentErrors.TransactionNotFound.of(transactionId)),
          onSome: (found) => Effect.succeed(found.transaction)
        })
      })
    })
  })
)
