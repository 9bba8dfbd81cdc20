import { Data } from "effect"
import type { AgentPolicy, ExecutionMode } from "./AgentPolicy.js"
import type { UsageCharge, UsageCounters } from "./AgentUsageRepo.js"
import { AgentPolicyDenied, type PolicyRule } from "./AgentErrors.js"

/**
 * The pure evaluation of one agent submission against its policy (docs/agent-actions.md, "Evaluation"). Amounts are
 * in the smallest unit of the policy's currency (`spendingLimits.currency`), already converted by the caller
 * (`PolicyCurrency`, rounding up): this module does no I/O and reads no clock.
 */

/** What one submission is: the agent's state, the account money moves from, and the amount in the limits' currency. */
export interface Submission {
  readonly isPaused: boolean
  readonly policy: AgentPolicy
  /** The internal account the money leaves (for a transfer-in, the internal account it enters). */
  readonly accountId: string
  readonly amountMinor: bigint
  /** The approval threshold converted into the limits' currency (rounded down), or none. */
  readonly thresholdMinor: bigint | undefined
}

/**
 * The verdict: refused (with the rule and its figures), executed at once, or held for the platform's approval
 * (`APPROVAL_REQUIRED` mode, or an amount above the approval threshold).
 */
export type Decision = Data.TaggedEnum<{
  Deny: { readonly error: AgentPolicyDenied }
  Execute: { readonly mode: ExecutionMode }
  NeedsApproval: { readonly mode: ExecutionMode; readonly why: "APPROVAL_REQUIRED" | "above_threshold" }
}>
export const Decision = Data.taggedEnum<Decision>()

const safe = (value: bigint): number =>
  Number(value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : value)

/**
 * Evaluates a submission in the documented order: a paused agent is refused (`agent_paused`); a source outside
 * `allowedAccountIds` (when set) is refused (`account_not_allowed`); an amount above the account rule's
 * `perTransactionLimit` (or, without one, the default) is refused (`per_transaction_limit`). The mode is the account
 * rule's `executionMode` or the policy's `defaultExecutionMode`: `APPROVAL_REQUIRED`, or an amount strictly above the
 * threshold, waits for approval; anything else executes.
 */
export const evaluate = (submission: Submission): Decision => {
  const { policy } = submission
  const currency = policy.spendingLimits.currency
  if (submission.isPaused) return Decision.Deny({ error: AgentPolicyDenied.of("agent_paused") })
  const allowed = policy.accountRestrictions?.allowedAccountIds
  if (allowed !== undefined && allowed !== null && !allowed.some((id) => id === submission.accountId)) {
    return Decision.Deny({
      error: AgentPolicyDenied.of("account_not_allowed", { accountId: submission.accountId })
    })
  }
  const rule = policy.accountRestrictions?.accountRules?.find(
    (candidate) => candidate.accountId === submission.accountId
  )
  const perTransaction = rule?.perTransactionLimit ?? policy.spendingLimits.perTransactionLimit
  if (submission.amountMinor > BigInt(perTransaction)) {
    return Decision.Deny({
      error: AgentPolicyDenied.of("per_transaction_limit", {
        currency,
        amount: safe(submission.amountMinor),
        limit: perTransaction
      })
    })
  }
  const mode = rule?.executionMode ?? policy.defaultExecutionMode
  if (mode === "APPROVAL_REQUIRED") return Decision.NeedsApproval({ mode, why: "APPROVAL_REQUIRED" })
  if (submission.thresholdMinor !== undefined && submission.amountMinor > submission.thresholdMinor) {
    return Decision.NeedsApproval({ mode, why: "above_threshold" })
  }
  return Decision.Execute({ mode })
}

/** The usage charge of `amountMinor` on `period` under the policy's daily, count and monthly limits. */
export const chargeOf = (
  policy: AgentPolicy,
  period: { readonly day: string; readonly month: string },
  amountMinor: bigint
): UsageCharge => {
  const limits = policy.spendingLimits
  return {
    day: period.day,
    month: period.month,
    amountMinor,
    dailyLimitMinor:
      limits.dailyLimit === undefined || limits.dailyLimit === null ? undefined : BigInt(limits.dailyLimit),
    dailyCountLimit: limits.dailyTransactionLimit,
    monthlyLimitMinor:
      limits.monthlyLimit === undefined || limits.monthlyLimit === null ? undefined : BigInt(limits.monthlyLimit)
  }
}

/**
 * The limit `charge` would pass on top of `current` (daily count first, then daily spend, then monthly spend), as
 * the refusal to answer, or `undefined` when every limit holds. `AgentUsageRepo.charge` applies the same rule
 * atomically; this names which limit refused, and checks a submission that is only held for approval.
 */
export const usageRefusal = (
  charge: UsageCharge,
  current: UsageCounters,
  currency: string
): AgentPolicyDenied | undefined => {
  const refuse = (rule: PolicyRule, limit: bigint | number, used: bigint | number) =>
    AgentPolicyDenied.of(rule, {
      currency,
      amount: safe(charge.amountMinor),
      limit: safe(BigInt(limit)),
      used: safe(BigInt(used))
    })
  if (charge.dailyCountLimit !== undefined && current.dailyCount + 1 > charge.dailyCountLimit) {
    return AgentPolicyDenied.of("daily_transaction_limit", {
      limit: charge.dailyCountLimit,
      used: current.dailyCount
    })
  }
  if (charge.dailyLimitMinor !== undefined && current.dailySpendMinor + charge.amountMinor > charge.dailyLimitMinor) {
    return refuse("daily_limit", charge.dailyLimitMinor, current.dailySpendMinor)
  }
  if (
    charge.monthlyLimitMinor !== undefined &&
    current.monthlySpendMinor + charge.amountMinor > charge.monthlyLimitMinor
  ) {
    return refuse("monthly_limit", charge.monthlyLimitMinor, current.monthlySpendMinor)
  }
  return undefined
}
