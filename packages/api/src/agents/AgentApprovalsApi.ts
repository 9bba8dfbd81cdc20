import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Agent, AgentAction, AgentErrors, Customer, FieldFormat, Transaction } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { IncomingApprovalsApi, TransactionsApi } from "../payments/index.js"
import { AgentNotFoundBody } from "./AgentsApi.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/** 404 `NOT_FOUND`: no live agent with this id on the platform. */
/** 404 `NOT_FOUND`: no action with this id for this agent. */
export const AgentActionNotFoundBody = wire(AgentErrors.AgentActionNotFound, 404, "No such action of this agent")
/** 409 `CONFLICT` (`action_not_pending`): the action was decided already; a repeated approve or reject lands here. */
/** 409 `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL`: no agent action waits for approval on the transaction. */
export const TransactionNotPendingApprovalBody = wire(
  AgentErrors.TransactionNotPendingApproval,
  409,
  "No agent action waits for approval on this transaction (none was submitted, or it was decided or expired)"
)

export const AgentActionNotPendingBody = wire(
  AgentErrors.AgentActionNotPending,
  409,
  "The action is no longer PENDING_APPROVAL (it was decided already)"
)

const ActionPath = reportFieldErrors(Schema.Struct({ agentId: Agent.AgentId, actionId: AgentAction.AgentActionId }))
const TransactionPath = reportFieldErrors(Schema.Struct({ transactionId: Transaction.TransactionId }))

/** Query of `GET /agents/approvals`: filters (dates inclusive, on `createdAt`), `status`, `sortOrder` and paging. */
export const ApprovalListParams = reportFieldErrors(
  Schema.Struct({
    agentId: Schema.optional(Agent.AgentId),
    customerId: Schema.optional(Customer.CustomerId),
    status: Schema.optional(AgentAction.AgentActionStatus),
    startDate: Schema.optional(ListQuery.TimestampBound),
    endDate: Schema.optional(ListQuery.TimestampBound),
    sortOrder: Schema.optional(Schema.Literal("asc", "desc")),
    ...ListQuery.pageParams
  })
)

/** Body of `POST /agents/{agentId}/actions/{actionId}/reject`: an optional reason (at most 1000 characters). */
export const RejectActionRequest = reportFieldErrors(
  Schema.Struct({ reason: Schema.optional(FieldFormat.Text(1000)) }).annotations({
    identifier: "AgentActionRejectRequest",
    parseOptions: { onExcessProperty: "error" }
  })
)

const actionList = ListQuery.ListResponse(AgentAction.AgentAction, "AgentActionListResponse")

/** The platform's decisions on what its agents submitted: list, approve, reject. */
export class AgentApprovalsApi extends HttpApiGroup.make("agentApprovals")
  .add(
    HttpApiEndpoint.get("list", "/agents/approvals")
      .setUrlParams(ApprovalListParams)
      .addSuccess(actionList)
      .annotate(OpenApi.Summary, "List agent actions")
      .annotate(
        OpenApi.Description,
        "The actions of the platform's agents, newest first unless `sortOrder=asc`, with `totalCount`. Without " +
          "`status` every status is listed; `status=PENDING_APPROVAL` lists what waits for a decision. `startDate` and " +
          "`endDate` bound `createdAt` (inclusive)."
      )
  )
  .add(
    HttpApiEndpoint.post("approve", "/agents/:agentId/actions/:actionId/approve")
      .setPath(ActionPath)
      .addSuccess(AgentAction.AgentAction)
      .addError(AgentNotFoundBody)
      .addError(AgentActionNotFoundBody)
      .addError(AgentActionNotPendingBody)
      .annotate(OpenApi.Summary, "Approve an agent action")
      .annotate(
        OpenApi.Description,
        "Executes a `PENDING_APPROVAL` action under the latest state: `APPROVED` with its `transaction`, or `FAILED` " +
          "with `failureReason` when it cannot execute now (`AGENT_INACTIVE`, `POLICY_DENIED`, `QUOTE_EXPIRED`, " +
          "`APPROVAL_EXPIRED`, `EXECUTION_FAILED`). An approval does not guarantee execution: read `status`. A " +
          "decided action answers 409, so a repeated approve is safe."
      )
  )
  .add(
    HttpApiEndpoint.post("reject", "/agents/:agentId/actions/:actionId/reject")
      .setPath(ActionPath)
      .setPayload(RejectActionRequest)
      .addSuccess(AgentAction.AgentAction)
      .addError(AgentNotFoundBody)
      .addError(AgentActionNotFoundBody)
      .addError(AgentActionNotPendingBody)
      .annotate(OpenApi.Summary, "Reject an agent action")
      .annotate(
        OpenApi.Description,
        "A `PENDING_APPROVAL` action becomes `REJECTED`, with `rejectionReason` when a `reason` is given; nothing " +
          "executes. The body is optional. A decided action answers 409, so a repeated reject is safe."
      )
  )
  .add(
    HttpApiEndpoint.post("approveTransaction", "/transactions/:transactionId/approve")
      .setPath(TransactionPath)
      .setPayload(IncomingApprovalsApi.ApproveTransactionRequest)
      .addSuccess(Transaction.Transaction)
      .addError(TransactionsApi.TransactionNotFoundBody)
      .addError(TransactionNotPendingApprovalBody)
      .addError(IncomingApprovalsApi.IncomingPaymentNotPendingBody)
      .annotate(OpenApi.Summary, "Approve a pending incoming payment or an agent-initiated transaction")
      .annotate(
        OpenApi.Description,
        "An incoming payment held `PENDING` for the platform's decision completes: its credit becomes available " +
          "(`receiverCustomerInfo` is optional; docs/incoming-approvals.md). Otherwise approves the pending agent " +
          "action whose transaction this is (a quote an agent submitted for execution), as " +
          "`POST /agents/{agentId}/actions/{actionId}/approve` does. Answers the transaction as it now is. 409 " +
          "`TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` when nothing waits for the platform on the transaction (a " +
          "held payment decided already or past its deadline, or no pending agent action)."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Agent approvals")
  .annotate(
    OpenApi.Description,
    "What the platform's agents submitted for approval, and the platform's decisions (docs/agent-actions.md)."
  ) {}
