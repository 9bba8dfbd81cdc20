import { Schema } from "effect"
import { InternalAccount } from "../accounts/index.js"
import { Currency } from "../kernel/index.js"

/** What an agent may do. Every agent operation names the one it needs; a missing one is 403 `FORBIDDEN`. */
export const Permission = Schema.Literal(
  "VIEW_TRANSACTIONS",
  "CREATE_TRANSFERS",
  "CREATE_QUOTES",
  "EXECUTE_QUOTES",
  "MANAGE_EXTERNAL_ACCOUNTS"
).annotations({ identifier: "AgentPermission" })
export type Permission = typeof Permission.Type

/** Whether an eligible action runs at once (`AUTO`) or waits for the platform (`APPROVAL_REQUIRED`). */
export const ExecutionMode = Schema.Literal("AUTO", "APPROVAL_REQUIRED").annotations({
  identifier: "AgentExecutionMode"
})
export type ExecutionMode = typeof ExecutionMode.Type

/** An amount limit in the smallest unit of the policy's currency: a non-negative safe integer. */
export const LimitMinor = Schema.Int.pipe(
  Schema.nonNegative(),
  Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER)
).annotations({ description: "an amount in the smallest unit of the limits' currency" })

/** A count limit: a non-negative integer. */
export const CountLimit = Schema.Int.pipe(Schema.nonNegative(), Schema.lessThanOrEqualTo(1_000_000))

/**
 * The reference's `AgentSpendingLimits`. Amounts are in the smallest unit of `currency`; an action in another
 * currency is converted at the exchange rate when it is evaluated. A `null` (or absent) optional limit is no limit.
 */
export const SpendingLimits = Schema.Struct({
  currency: Currency.CurrencyCode,
  perTransactionLimit: LimitMinor,
  dailyLimit: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true }),
  dailyTransactionLimit: Schema.optionalWith(CountLimit, { exact: true }),
  monthlyLimit: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true })
}).annotations({ identifier: "AgentSpendingLimits" })
export type SpendingLimits = typeof SpendingLimits.Type

/** The reference's `AgentSpendingLimitsUpdate`: every field optional; `null` removes an optional limit. */
export const SpendingLimitsUpdate = Schema.Struct({
  currency: Schema.optionalWith(Currency.CurrencyCode, { exact: true }),
  perTransactionLimit: Schema.optionalWith(LimitMinor, { exact: true }),
  dailyLimit: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true }),
  dailyTransactionLimit: Schema.optionalWith(CountLimit, { exact: true }),
  monthlyLimit: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true })
}).annotations({ identifier: "AgentSpendingLimitsUpdate" })
export type SpendingLimitsUpdate = typeof SpendingLimitsUpdate.Type

/**
 * A per-account override (the reference's `AgentAccountRule`): for actions whose source is `accountId`, its
 * `executionMode` and `perTransactionLimit` (in the limits' currency; `null` inherits) replace the defaults.
 */
export const AccountRule = Schema.Struct({
  accountId: InternalAccount.InternalAccountId,
  executionMode: Schema.optionalWith(ExecutionMode, { exact: true }),
  perTransactionLimit: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true })
}).annotations({ identifier: "AgentAccountRule" })
export type AccountRule = typeof AccountRule.Type

/**
 * Which of the customer's internal accounts the agent may move money from (`allowedAccountIds`; `null` or absent
 * is every one) and the per-account rules.
 */
export const AccountRestrictions = Schema.Struct({
  allowedAccountIds: Schema.optionalWith(Schema.NullOr(Schema.Array(InternalAccount.InternalAccountId)), {
    exact: true
  }),
  accountRules: Schema.optionalWith(Schema.Array(AccountRule), { exact: true })
}).annotations({ identifier: "AgentAccountRestrictions" })
export type AccountRestrictions = typeof AccountRestrictions.Type

/**
 * The reference's `AgentApprovalThresholds`: an action above `amount` (in the smallest unit of `currency`, required
 * when `amount` is set) needs approval even in `AUTO` mode. `null` is no threshold.
 */
export const ApprovalThresholds = Schema.Struct({
  currency: Schema.optionalWith(Currency.CurrencyCode, { exact: true }),
  amount: Schema.optionalWith(Schema.NullOr(LimitMinor), { exact: true })
})
  .pipe(
    Schema.filter(
      (thresholds) =>
        thresholds.amount === undefined || thresholds.amount === null || thresholds.currency !== undefined
          ? undefined
          : { path: ["currency"], message: "is required when amount is set" },
      { identifier: "AgentApprovalThresholds" }
    )
  )
  .annotations({ identifier: "AgentApprovalThresholds" })
export type ApprovalThresholds = typeof ApprovalThresholds.Type

/** The reference's `AgentPolicy`: what an agent may do, how it executes, and its spending boundaries. */
export const AgentPolicy = Schema.Struct({
  permissions: Schema.Array(Permission),
  defaultExecutionMode: ExecutionMode,
  spendingLimits: SpendingLimits,
  accountRestrictions: Schema.optionalWith(AccountRestrictions, { exact: true }),
  approvalThresholds: Schema.optionalWith(ApprovalThresholds, { exact: true })
}).annotations({ identifier: "AgentPolicy" })
export type AgentPolicy = typeof AgentPolicy.Type

/**
 * Body of `PATCH /agents/{agentId}/policy` (the reference's `AgentPolicyUpdateRequest`): provided fields replace,
 * `permissions` replaces the whole list, `spendingLimits` merges field by field (a changed `currency` re-denominates
 * the limits and usage at the exchange rate). At least one field.
 */
export const AgentPolicyUpdate = Schema.Struct({
  permissions: Schema.optionalWith(Schema.Array(Permission), { exact: true }),
  defaultExecutionMode: Schema.optionalWith(ExecutionMode, { exact: true }),
  spendingLimits: Schema.optionalWith(SpendingLimitsUpdate, { exact: true }),
  accountRestrictions: Schema.optionalWith(AccountRestrictions, { exact: true }),
  approvalThresholds: Schema.optionalWith(ApprovalThresholds, { exact: true })
}).annotations({
  identifier: "AgentPolicyUpdateRequest",
  parseOptions: { errors: "all", onExcessProperty: "error" }
})
export type AgentPolicyUpdate = typeof AgentPolicyUpdate.Type
