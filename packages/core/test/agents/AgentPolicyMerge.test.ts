import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { AgentPolicy, AgentPolicyMerge } from "@payrail/core"

const decodePolicy = Schema.decodeUnknownSync(AgentPolicy.AgentPolicy)
const decodeUpdate = Schema.decodeUnknownSync(AgentPolicy.AgentPolicyUpdate)

const current = decodePolicy({
  permissions: ["VIEW_TRANSACTIONS", "CREATE_QUOTES"],
  defaultExecutionMode: "AUTO",
  spendingLimits: {
    currency: "USD",
    perTransactionLimit: 10_001,
    dailyLimit: 50_001,
    dailyTransactionLimit: 10,
    monthlyLimit: 200_001
  },
  accountRestrictions: {
    allowedAccountIds: null,
    accountRules: [
      {
        accountId: "InternalAccount:00000000-0000-4000-8000-000000000001",
        executionMode: "APPROVAL_REQUIRED",
        perTransactionLimit: 3_001
      }
    ]
  },
  approvalThresholds: { currency: "USD", amount: 20_000 }
})

const same = { numerator: 1n, denominator: 1n }
// 1 USD = 0.5 of the new currency (both with 2 decimals): halves, rounding down.
const half = { numerator: 1n, denominator: 2n }

describe("AgentPolicyMerge.merge", () => {
  const rows: ReadonlyArray<readonly [string, unknown, (policy: AgentPolicy.AgentPolicy) => void]> = [
    [
      "permissions replace the whole list",
      { permissions: ["EXECUTE_QUOTES"] },
      (policy) => expect(policy.permissions).toEqual(["EXECUTE_QUOTES"])
    ],
    [
      "defaultExecutionMode replaces",
      { defaultExecutionMode: "APPROVAL_REQUIRED" },
      (policy) => expect(policy.defaultExecutionMode).toBe("APPROVAL_REQUIRED")
    ],
    [
      "spendingLimits merge field by field",
      { spendingLimits: { dailyLimit: 7 } },
      (policy) => expect(policy.spendingLimits).toEqual({ ...current.spendingLimits, dailyLimit: 7 })
    ],
    [
      "null removes dailyLimit and monthlyLimit",
      { spendingLimits: { dailyLimit: null, monthlyLimit: null } },
      (policy) =>
        expect(policy.spendingLimits).toEqual({
          currency: "USD",
          perTransactionLimit: 10_001,
          dailyTransactionLimit: 10
        })
    ],
    [
      "accountRestrictions replace whole",
      { accountRestrictions: { allowedAccountIds: [] } },
      (policy) => expect(policy.accountRestrictions).toEqual({ allowedAccountIds: [] })
    ],
    [
      "approvalThresholds replace whole",
      { approvalThresholds: { amount: null } },
      (policy) => expect(policy.approvalThresholds).toEqual({ amount: null })
    ],
    [
      "absent fields keep the stored ones",
      { permissions: ["EXECUTE_QUOTES"] },
      (policy) => expect({ ...policy, permissions: current.permissions }).toEqual(current)
    ]
  ]
  for (const [rule, update, check] of rows) {
    it(rule, () => check(AgentPolicyMerge.merge(current, decodeUpdate(update), same)))
  }

  it("a new currency converts the limits the update does not set and the rules' limits, rounding down", () => {
    const update = decodeUpdate({ spendingLimits: { currency: "EUR", dailyLimit: 40_000 } })
    expect(AgentPolicyMerge.currencyChange(current, update)).toEqual({ from: "USD", to: "EUR" })
    const policy = AgentPolicyMerge.merge(current, update, half)
    expect(policy.spendingLimits).toEqual({
      currency: "EUR",
      perTransactionLimit: 5_000,
      dailyLimit: 40_000,
      dailyTransactionLimit: 10,
      monthlyLimit: 100_000
    })
    expect(policy.accountRestrictions?.accountRules?.[0]?.perTransactionLimit).toBe(1_500)
    expect(policy.approvalThresholds).toEqual(current.approvalThresholds)
  })

  it("with accountRestrictions in the update, its rules are taken as given in the new currency", () => {
    const update = decodeUpdate({
      spendingLimits: { currency: "EUR" },
      accountRestrictions: {
        accountRules: [{ accountId: "InternalAccount:00000000-0000-4000-8000-000000000001", perTransactionLimit: 999 }]
      }
    })
    expect(
      AgentPolicyMerge.merge(current, update, half).accountRestrictions?.accountRules?.[0]?.perTransactionLimit
    ).toBe(999)
  })

  it("the same currency is no change; an empty update is empty", () => {
    expect(
      AgentPolicyMerge.currencyChange(current, decodeUpdate({ spendingLimits: { currency: "USD" } }))
    ).toBeUndefined()
    expect(AgentPolicyMerge.isEmpty(decodeUpdate({}))).toBe(true)
    expect(AgentPolicyMerge.isEmpty(decodeUpdate({ permissions: [] }))).toBe(false)
  })
})
