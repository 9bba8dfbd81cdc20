import { Context, type Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { AgentId } from "./Agent.js"

/**
 * An agent's usage counters as stored: the day (`YYYY-MM-DD`) and month (`YYYY-MM`) they count, what was spent in
 * each (smallest unit of the policy's currency) and how many actions executed that day. Counters of a day or month
 * that is over read as zero.
 */
export interface UsageCounters {
  readonly day: string
  readonly dailySpendMinor: bigint
  readonly dailyCount: number
  readonly month: string
  readonly monthlySpendMinor: bigint
}

/** One charge against the counters, and the limits it must stay within (`undefined`: no limit). */
export interface UsageCharge {
  /** The platform's current day and month, in which the charge counts. */
  readonly day: string
  readonly month: string
  readonly amountMinor: bigint
  readonly dailyLimitMinor: bigint | undefined
  readonly dailyCountLimit: number | undefined
  readonly monthlyLimitMinor: bigint | undefined
}

/**
 * The usage counters of agents. Counters of another day (month) than the charge's start again from zero: days
 * and months roll over by the charge's dates, which come from the platform's clock.
 */
export class AgentUsageRepo extends Context.Tag("@payrail/core/AgentUsageRepo")<
  AgentUsageRepo,
  {
    /** The agent's counters (all zero, of the given day and month, before its first charge). */
    readonly current: (
      platformId: Platform.PlatformId,
      agentId: AgentId,
      today: { readonly day: string; readonly month: string }
    ) => Effect.Effect<UsageCounters, StoreFailure.StoreFailure>
    /**
     * Adds the charge (amount to the day's and month's spend, one to the day's count) if, after it, every limit
     * still holds, in one guarded step: of concurrent charges exactly as many commit as the limits allow, never one
     * more. Answers the counters after it, or `undefined` when a limit refused (nothing changed). Joins the caller's
     * unit of work, so a charge rolled back with its action frees its room.
     */
    readonly charge: (
      platformId: Platform.PlatformId,
      agentId: AgentId,
      charge: UsageCharge
    ) => Effect.Effect<UsageCounters | undefined, StoreFailure.StoreFailure>
    /**
     * Re-denominates the spend counters: each becomes `floor(spend * numerator / denominator)` (a policy's limits
     * changed currency at that rate). Counts are kept.
     */
    readonly rescale: (
      platformId: Platform.PlatformId,
      agentId: AgentId,
      rate: { readonly numerator: bigint; readonly denominator: bigint }
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
  }
>() {}
