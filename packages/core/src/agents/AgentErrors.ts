import { Schema } from "effect"

/**
 * Failures of agents, their device codes, their policies and their actions. One constructor each (`of`), so no call
 * site spells out a code or reason; the HTTP status is attached by `@payrail/api`.
 */

/** No live agent with this id on the caller's platform (deleted agents and other platforms' are indistinguishable). */
export class AgentNotFound extends Schema.TaggedError<AgentNotFound>()("AgentNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ agentId: Schema.String })
}) {
  static of(agentId: string): AgentNotFound {
    return new AgentNotFound({ reason: "Agent not found", details: { agentId } })
  }
}

/** No action with this id for this agent (or, agent side, for the calling agent). */
export class AgentActionNotFound extends Schema.TaggedError<AgentActionNotFound>()("AgentActionNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ actionId: Schema.String })
}) {
  static of(actionId: string): AgentActionNotFound {
    return new AgentActionNotFound({ reason: "Agent action not found", details: { actionId } })
  }
}

/** No device code like this one was ever issued (404). */
export class DeviceCodeNotFound extends Schema.TaggedError<DeviceCodeNotFound>()("DeviceCodeNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String
}) {
  static of(): DeviceCodeNotFound {
    return new DeviceCodeNotFound({ reason: "Device code not found" })
  }
}

/**
 * The device code exists but cannot be redeemed (400): it was redeemed already, it expired, or a newer code (or the
 * agent's deletion) invalidated it. `details.rule` says which.
 */
export class DeviceCodeUnusable extends Schema.TaggedError<DeviceCodeUnusable>()("DeviceCodeUnusable", {
  code: Schema.tag("DEVICE_CODE_UNUSABLE"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("already_redeemed", "expired", "invalidated") })
}) {
  static of(rule: "already_redeemed" | "expired" | "invalidated"): DeviceCodeUnusable {
    const reasons = {
      already_redeemed: "The device code was already redeemed",
      expired: "The device code expired; issue a new one with POST /agents/{agentId}/device-codes",
      invalidated: "The device code was replaced by a newer one or its agent was deleted"
    } as const
    return new DeviceCodeUnusable({ reason: reasons[rule], details: { rule } })
  }
}

/** A new device code was asked for an agent that already holds an access token (409). */
export class AgentAlreadyConnected extends Schema.TaggedError<AgentAlreadyConnected>()("AgentAlreadyConnected", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ agentId: Schema.String, rule: Schema.Literal("agent_already_connected") })
}) {
  static of(agentId: string): AgentAlreadyConnected {
    return new AgentAlreadyConnected({
      reason: "The agent is already connected; delete it and create a new one to reinstall",
      details: { agentId, rule: "agent_already_connected" }
    })
  }
}

/** The agent's policy lacks the permission the operation needs (403). */
export class AgentPermissionDenied extends Schema.TaggedError<AgentPermissionDenied>()("AgentPermissionDenied", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("requires_permission"), requiredPermission: Schema.String })
}) {
  static of(requiredPermission: string): AgentPermissionDenied {
    return new AgentPermissionDenied({
      reason: `The agent's policy lacks the ${requiredPermission} permission`,
      details: { rule: "requires_permission", requiredPermission }
    })
  }
}

/** Which policy rule refused an action. */
export const PolicyRule = Schema.Literal(
  "agent_paused",
  "account_not_allowed",
  "per_transaction_limit",
  "daily_limit",
  "daily_transaction_limit",
  "monthly_limit"
)
export type PolicyRule = typeof PolicyRule.Type

/**
 * The agent's policy refuses the action (403): the agent is paused, the source account is not allowed, or the
 * amount (converted to the limits' currency: `details.amount`) passes a limit (`details.limit`, with what was used
 * so far where it counts usage).
 */
export class AgentPolicyDenied extends Schema.TaggedError<AgentPolicyDenied>()("AgentPolicyDenied", {
  code: Schema.tag("FORBIDDEN"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: PolicyRule,
    currency: Schema.optional(Schema.String),
    amount: Schema.optional(Schema.Int),
    limit: Schema.optional(Schema.Int),
    used: Schema.optional(Schema.Int),
    accountId: Schema.optional(Schema.String)
  })
}) {
  static of(
    rule: PolicyRule,
    details: {
      readonly currency?: string
      readonly amount?: number
      readonly limit?: number
      readonly used?: number
      readonly accountId?: string
    } = {}
  ): AgentPolicyDenied {
    const reasons: Record<PolicyRule, string> = {
      agent_paused: "The agent is paused and executes nothing new",
      account_not_allowed: "The agent's policy does not allow this account",
      per_transaction_limit: "The amount exceeds the agent's per-transaction limit",
      daily_limit: "The amount would exceed the agent's daily spending limit",
      daily_transaction_limit: "The agent reached its daily transaction limit",
      monthly_limit: "The amount would exceed the agent's monthly spending limit"
    }
    return new AgentPolicyDenied({ reason: reasons[rule], details: { rule, ...details } })
  }
}

/** Approve or reject of an action that is no longer `PENDING_APPROVAL` (409; repeating a decision lands here). */
export class AgentActionNotPending extends Schema.TaggedError<AgentActionNotPending>()("AgentActionNotPending", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({
    actionId: Schema.String,
    status: Schema.String,
    rule: Schema.Literal("action_not_pending")
  })
}) {
  static of(actionId: string, status: string): AgentActionNotPending {
    return new AgentActionNotPending({
      reason: `The action is ${status}, not PENDING_APPROVAL`,
      details: { actionId, status, rule: "action_not_pending" }
    })
  }
}

/**
 * `POST /transactions/{transactionId}/approve` on a transaction that waits for no platform approval: no agent action
 * is pending on it (it was not submitted by an agent, or its action was decided or expired already). The reference
 * API's code `TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL` (409), with the transaction and where its action stands
 * (`NONE` when no agent submitted it).
 */
export class TransactionNotPendingApproval extends Schema.TaggedError<TransactionNotPendingApproval>()(
  "TransactionNotPendingApproval",
  {
    code: Schema.tag("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"),
    reason: Schema.String,
    details: Schema.Struct({ transactionId: Schema.String, actionStatus: Schema.String })
  }
) {
  static of(transactionId: string, actionStatus: string): TransactionNotPendingApproval {
    return new TransactionNotPendingApproval({
      reason:
        actionStatus === "NONE"
          ? "No agent action waits for approval on this transaction"
          : `The transaction's agent action is ${actionStatus}, not PENDING_APPROVAL`,
      details: { transactionId, actionStatus }
    })
  }
}
