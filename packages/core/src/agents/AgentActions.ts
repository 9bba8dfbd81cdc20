import { Context, type Effect } from "effect"
import type { InvalidInput, Page, StoreFailure } from "../kernel/index.js"
import type {
  PaymentErrors,
  Quote,
  QuoteRequest,
  Quotes,
  Transaction,
  TransferRequest,
  Transfers
} from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentId } from "./Agent.js"
import type { AgentAction, AgentActionFilter, AgentActionId } from "./AgentAction.js"
import type { AgentCaller } from "./AgentCaller.js"
import type {
  AgentActionNotFound,
  AgentActionNotPending,
  AgentNotFound,
  AgentPermissionDenied,
  AgentPolicyDenied
} from "./AgentErrors.js"

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
    ) => Effect.Effect<AgentAction, SubmitError | QuoteExecuteError>
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
    /** `GET /agents/approvals`: the platform's actions (pending ones unless `filter.status` says otherwise). */
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
