import { type DateTime, Schema } from "effect"
import { Customer } from "../customers/index.js"
import { Currency, ResourceId, SchemaClass } from "../kernel/index.js"
import { Quote, Transaction } from "../payments/index.js"
import type { Platform } from "../platforms/index.js"
import { AgentId } from "./Agent.js"

/** `AgentAction:<uuid>`: one operation an agent submitted (a quote execution or a transfer). */
export const AgentActionId = ResourceId.make("AgentAction")
export type AgentActionId = typeof AgentActionId.Type

/** The spec's action states (see `AgentActionState` for the transitions). */
export const AgentActionStatus = Schema.Literal("PENDING_APPROVAL", "APPROVED", "REJECTED", "FAILED").annotations({
  identifier: "AgentActionStatus"
})
export type AgentActionStatus = typeof AgentActionStatus.Type

/** What the agent asked for. */
export const AgentActionType = Schema.Literal("EXECUTE_QUOTE", "TRANSFER_OUT", "TRANSFER_IN").annotations({
  identifier: "AgentActionType"
})
export type AgentActionType = typeof AgentActionType.Type

/**
 * Why an action is `FAILED` (the reference's `AgentActionFailureReason`, the values that apply here):
 * `QUOTE_EXPIRED` (its quote expired before it ran), `POLICY_DENIED` (the policy as it stands no longer allows it:
 * limits reduced, daily or monthly spend consumed, account no longer allowed), `AGENT_INACTIVE` (the agent was paused
 * or deleted), `EXECUTION_FAILED` (the payment could not start: funds, accounts changed), `APPROVAL_EXPIRED` (a
 * transfer waited longer than its approval window).
 */
export const AgentActionFailureReason = Schema.Literal(
  "QUOTE_EXPIRED",
  "POLICY_DENIED",
  "AGENT_INACTIVE",
  "EXECUTION_FAILED",
  "APPROVAL_EXPIRED"
).annotations({ identifier: "AgentActionFailureReason" })
export type AgentActionFailureReason = typeof AgentActionFailureReason.Type

/** The reference's `AgentTransferDetails`: the transfer a `TRANSFER_OUT` or `TRANSFER_IN` action moves. */
export const AgentTransferDetails = Schema.Struct({
  amount: Schema.Int,
  currency: Currency.CurrencyCode,
  sourceAccountId: Schema.String,
  destinationAccountId: Schema.String
}).annotations({ identifier: "AgentTransferDetails" })
export type AgentTransferDetails = typeof AgentTransferDetails.Type

/**
 * The reference's `AgentAction` as the API returns it: `quote` (its current state) for `EXECUTE_QUOTE`,
 * `transferDetails` for transfers, `transaction` once the action executed (absent while pending, rejected, or failed
 * before execution), `rejectionReason` only when `REJECTED`, `failureReason` only when `FAILED`. `expiresAt` is when
 * a pending action fails unapproved: the quote's expiry, or the transfer approval window.
 */
export class AgentAction extends SchemaClass.Class<AgentAction>("AgentAction")({
  id: AgentActionId,
  agentId: AgentId,
  customerId: Customer.CustomerId,
  platformCustomerId: Schema.String,
  status: AgentActionStatus,
  type: AgentActionType,
  quote: Schema.optional(Quote.Quote),
  transferDetails: Schema.optional(AgentTransferDetails),
  transaction: Schema.optional(Transaction.Transaction),
  rejectionReason: Schema.optional(Schema.String),
  failureReason: Schema.optional(AgentActionFailureReason),
  expiresAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * A stored action: the references it composes from (its quote, its transaction once executed) rather than copies,
 * so that a read shows their current state.
 */
export interface StoredAgentAction {
  readonly id: AgentActionId
  readonly platformId: Platform.PlatformId
  readonly agentId: AgentId
  readonly customerId: Customer.CustomerId
  readonly platformCustomerId: string
  readonly status: AgentActionStatus
  readonly type: AgentActionType
  /** The quote an `EXECUTE_QUOTE` action executes. */
  readonly quoteId: Quote.QuoteId | undefined
  /** The transfer a `TRANSFER_OUT`/`TRANSFER_IN` action moves, with the rail a transfer-out asked for. */
  readonly transferDetails: (AgentTransferDetails & { readonly paymentRail?: string }) | undefined
  /**
   * The transaction the action is about: for `EXECUTE_QUOTE` the quote's (known from submission, shown only once
   * executed); for transfers the one their execution created.
   */
  readonly transactionId: Transaction.TransactionId | undefined
  /** Whether the action executed (its `transaction` is shown). */
  readonly executed: boolean
  readonly rejectionReason: string | undefined
  readonly failureReason: AgentActionFailureReason | undefined
  readonly expiresAt: DateTime.Utc
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

/** Filters of `GET /agents/approvals` and `GET /agents/me/actions`. */
export interface AgentActionFilter {
  readonly agentId?: AgentId
  readonly customerId?: Customer.CustomerId
  readonly status?: AgentActionStatus
  readonly createdAfter?: DateTime.Utc
  readonly createdBefore?: DateTime.Utc
}
