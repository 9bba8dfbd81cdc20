import { describe, expect, it } from "@effect/vitest"
import { type AgentPolicy, AgentPolicyDecision, type AgentUsageRepo } from "@payrail/core"

const allowedAccount = "InternalAccount:00000000-0000-4000-8000-000000000001"
const otherAccount = "InternalAccount:00000000-0000-4000-8000-000000000002"

const policy = (overrides: Partial<AgentPolicy.AgentPolicy> = {}): AgentPolicy.AgentPolicy => ({
  permissions: ["EXECUTE_QUOTES"],
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USD", perTransactionLimit: 10_000 },
  ...overrides
})

const evaluate = (
  amountMinor: bigint,
  options: {
    readonly policy?: AgentPolicy.AgentPolicy
    readonly isPaused?: boolean
    readonly accountId?: string
    readonly thresholdMinor?: bigint
  } = {}
) =>
  AgentPolicyDecision.evaluate({
    isPaused: options.isPaused ?? false,
    policy: options.policy ?? policy(),
    accountId: options.accountId ?? allowedAccount,
    amountMinor,
    thresholdMinor: options.thresholdMinor
  })

const ruleOf = (decision: AgentPolicyDecision.Decision) =>
  decision._tag === "Deny" ? decision.error.details.rule : decision._tag

describe("AgentPolicyDecision.evaluate", () => {
  const restricted = policy({
    accountRestrictions: {
      allowedAccountIds: [allowedAccount as never],
      accountRules: [
        { accountId: allowedAccount as never, executionMode: "APPROVAL_REQUIRED", perTransactionLimit: 500 }
      ]
    }
  })

  it.each([
    ["a paused agent is refused first, whatever else holds", evaluate(1n, { isPaused: true }), "agent_paused"],
    [
      "paused beats a disallowed account",
      evaluate(1n, { isPaused: true, policy: restricted, accountId: otherAccount }),
      "agent_paused"
    ],
    [
      "an account outside allowedAccountIds",
      evaluate(1n, { policy: restricted, accountId: otherAccount }),
      "account_not_allowed"
    ],
    [
      "allowedAccountIds null allows every account",
      evaluate(1n, { policy: policy({ accountRestrictions: { allowedAccountIds: null } }), accountId: otherAccount }),
      "Execute"
    ],
    ["the default per-transaction limit is inclusive", evaluate(10_000n), "Execute"],
    ["one unit above the default per-transaction limit", evaluate(10_001n), "per_transaction_limit"],
    ["the account rule's limit replaces the default", evaluate(501n, { policy: restricted }), "per_transaction_limit"],
    ["the account rule's mode replaces the default", evaluate(500n, { policy: restricted }), "NeedsApproval"],
    [
      "APPROVAL_REQUIRED by default",
      evaluate(1n, { policy: policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }) }),
      "NeedsApproval"
    ],
    ["AUTO at the threshold executes", evaluate(2_000n, { thresholdMinor: 2_000n }), "Execute"],
    ["AUTO above the threshold waits", evaluate(2_001n, { thresholdMinor: 2_000n }), "NeedsApproval"],
    [
      "the per-transaction limit beats the threshold",
      evaluate(10_001n, { thresholdMinor: 2_000n }),
      "per_transaction_limit"
    ]
  ] as const)("%s", (_, decision, expected) => {
    expect(ruleOf(decision)).toBe(expected)
  })

  it("reports the amount and the limit it passed, in the limits' currency", () => {
    const decision = evaluate(10_001n)
    expect(decision).toMatchObject({
      _tag: "Deny",
      error: {
        code: "FORBIDDEN",
        details: { rule: "per_transaction_limit", currency: "USD", amount: 10_001, limit: 10_000 }
      }
    })
  })

  it("says why an action waits: its mode, or its amount above the threshold", () => {
    expect(evaluate(5n, { policy: policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }) })).toMatchObject({
      why: "APPROVAL_REQUIRED"
    })
    expect(evaluate(5n, { thresholdMinor: 4n })).toMatchObject({ why: "above_threshold" })
  })
})

describe("AgentPolicyDecision.usageRefusal", () => {
  const counters = (dailySpendMinor: bigint, dailyCount: number, monthlySpendMinor: bigint) =>
    ({
      day: "2026-01-02",
      month: "2026-01",
      dailySpendMinor,
      dailyCount,
      monthlySpendMinor
    }) satisfies AgentUsageRepo.UsageCounters
  const limited = policy({
    spendingLimits: {
      currency: "USD",
      perTransactionLimit: 10_000,
      dailyLimit: 1_000,
      dailyTransactionLimit: 3,
      monthlyLimit: 5_000
    }
  })
  const charge = (amount: bigint) =>
    AgentPolicyDecision.chargeOf(limited, { day: "2026-01-02", month: "2026-01" }, amount)
  const rule = (amount: bigint, current: AgentUsageRepo.UsageCounters) =>
    AgentPolicyDecision.usageRefusal(charge(amount), current, "USD")?.details.rule

  it.each([
    ["within every limit", 100n, counters(0n, 0, 0n), undefined],
    ["exactly the daily limit", 1_000n, counters(0n, 0, 0n), undefined],
    ["past the daily limit", 1n, counters(1_000n, 0, 1_000n), "daily_limit"],
    ["the last transaction of the day", 1n, counters(0n, 2, 0n), undefined],
    ["past the daily count", 1n, counters(0n, 3, 0n), "daily_transaction_limit"],
    ["past the monthly limit", 100n, counters(0n, 0, 4_950n), "monthly_limit"]
  ] as const)("%s", (_, amount, current, expected) => {
    expect(rule(amount, current)).toBe(expected)
  })

  it("takes absent or null limits as no limit", () => {
    const open = AgentPolicyDecision.chargeOf(
      policy({ spendingLimits: { currency: "USD", perTransactionLimit: 1, dailyLimit: null, monthlyLimit: null } }),
      { day: "2026-01-02", month: "2026-01" },
      1_000_000n
    )
    expect(open).toMatchObject({ dailyLimitMinor: undefined, dailyCountLimit: undefined, monthlyLimitMinor: undefined })
    expect(AgentPolicyDecision.usageRefusal(open, counters(10n ** 12n, 10_000, 10n ** 12n), "USD")).toBeUndefined()
  })
})
