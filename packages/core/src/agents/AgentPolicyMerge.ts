import type { AccountRestrictions, AgentPolicy, AgentPolicyUpdate, SpendingLimits } from "./AgentPolicy.js"
import { applyRoundingDown, type Conversion } from "./PolicyCurrency.js"

/**
 * How `PATCH /agents/{agentId}/policy` applies to a policy, as a pure function:
 * - `permissions`, `defaultExecutionMode`, `accountRestrictions` and `approvalThresholds` replace the stored ones
 *   whole when present;
 * - `spendingLimits` merges field by field: a present field replaces, `null` removes `dailyLimit`/`monthlyLimit`,
 *   an absent one is kept;
 * - a new `spendingLimits.currency` re-denominates, with `conversion` (old currency to new) rounded down so no limit
 *   grows, every amount limit the patch does not set, and the account rules' `perTransactionLimit` unless the patch
 *   replaces `accountRestrictions`. Counts (`dailyTransactionLimit`) are never converted.
 */
export const merge = (current: AgentPolicy, update: AgentPolicyUpdate, conversion: Conversion): AgentPolicy => {
  const changes = currencyChange(current, update) !== undefined
  const convert = (amount: number): number => (changes ? Number(applyRoundingDown(BigInt(amount), conversion)) : amount)
  const { accountRestrictions, approvalThresholds, defaultExecutionMode, permissions, spendingLimits } = update
  const restrictions =
    accountRestrictions ?? (current.accountRestrictions && convertRules(current.accountRestrictions, convert))
  return {
    permissions: permissions ?? current.permissions,
    defaultExecutionMode: defaultExecutionMode ?? current.defaultExecutionMode,
    spendingLimits: mergeLimits(current.spendingLimits, spendingLimits ?? {}, convert),
    ...(restrictions === undefined ? {} : { accountRestrictions: restrictions }),
    ...((approvalThresholds ?? current.approvalThresholds) === undefined
      ? {}
      : { approvalThresholds: approvalThresholds ?? current.approvalThresholds })
  }
}

/** The currencies the limits move between, when the patch changes `spendingLimits.currency`. */
export const currencyChange = (
  current: AgentPolicy,
  update: AgentPolicyUpdate
): { readonly from: string; readonly to: string } | undefined => {
  const to = update.spendingLimits?.currency
  return to === undefined || to === current.spendingLimits.currency
    ? undefined
    : { from: current.spendingLimits.currency, to }
}

/** Whether the patch names no field at all (refused: a policy update changes something). */
export const isEmpty = (update: AgentPolicyUpdate): boolean => Object.keys(update).length === 0

type Optional = number | null | undefined

const mergeLimits = (
  current: SpendingLimits,
  update: NonNullable<AgentPolicyUpdate["spendingLimits"]>,
  convert: (amount: number) => number
): SpendingLimits => {
  // `null` removes a limit; a stored `null` is no limit either, so both leave the key out.
  const amount = (key: "dailyLimit" | "monthlyLimit"): Optional =>
    key in update
      ? update[key]
      : current[key] === undefined || current[key] === null
        ? undefined
        : convert(current[key])
  const dailyLimit = amount("dailyLimit")
  const monthlyLimit = amount("monthlyLimit")
  const dailyTransactionLimit = update.dailyTransactionLimit ?? current.dailyTransactionLimit
  return {
    currency: update.currency ?? current.currency,
    perTransactionLimit: update.perTransactionLimit ?? convert(current.perTransactionLimit),
    ...(dailyLimit === undefined || dailyLimit === null ? {} : { dailyLimit }),
    ...(dailyTransactionLimit === undefined ? {} : { dailyTransactionLimit }),
    ...(monthlyLimit === undefined || monthlyLimit === null ? {} : { monthlyLimit })
  }
}

const convertRules = (restrictions: AccountRestrictions, convert: (amount: number) => number): AccountRestrictions =>
  restrictions.accountRules === undefined
    ? restrictions
    : {
        ...restrictions,
        accountRules: restrictions.accountRules.map((rule) =>
          rule.perTransactionLimit === undefined || rule.perTransactionLimit === null
            ? rule
            : { ...rule, perTransactionLimit: convert(rule.perTransactionLimit) }
        )
      }
