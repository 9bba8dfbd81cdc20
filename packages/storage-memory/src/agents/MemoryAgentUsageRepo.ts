import { Effect, Layer } from "effect"
import { AgentUsageRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row extends AgentUsageRepo.UsageCounters {
  readonly platformId: string
}

const zero = (day: string, month: string): AgentUsageRepo.UsageCounters => ({
  day,
  dailySpendMinor: 0n,
  dailyCount: 0,
  month,
  monthlySpendMinor: 0n
})

/** The counters as of `day` and `month`: a day's (month's) counters start from zero on another day (month). */
const asOf = (
  counters: AgentUsageRepo.UsageCounters | undefined,
  day: string,
  month: string
): AgentUsageRepo.UsageCounters => {
  if (counters === undefined) return zero(day, month)
  const sameDay = counters.day === day
  const sameMonth = counters.month === month
  return {
    day,
    dailySpendMinor: sameDay ? counters.dailySpendMinor : 0n,
    dailyCount: sameDay ? counters.dailyCount : 0,
    month,
    monthlySpendMinor: sameMonth ? counters.monthlySpendMinor : 0n
  }
}

const counters = ({ platformId: _, ...rest }: Row): AgentUsageRepo.UsageCounters => rest

/**
 * `AgentUsageRepo` in memory: `charge` reads, checks every limit and adds in one atomic write, so concurrent
 * charges never pass a limit; a failed unit of work undoes its charges. Counters are scoped to the agent's platform:
 * another platform reads zero, and its charges are refused and its rescales ignored.
 */
export const layer: Layer.Layer<AgentUsageRepo.AgentUsageRepo, never, MemoryState> = Layer.effect(
  AgentUsageRepo.AgentUsageRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("agentUsage")
    const own = (platformId: string, agentId: string): Row | undefined => {
      const row = rows.get(agentId)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    return AgentUsageRepo.AgentUsageRepo.of({
      current: (platformId, agentId, today) =>
        Effect.sync(() => {
          const row = own(platformId, agentId)
          return asOf(row === undefined ? undefined : counters(row), today.day, today.month)
        }),
      charge: (platformId, agentId, charge) =>
        state.write((): readonly [AgentUsageRepo.UsageCounters | undefined, () => void] => {
          const stored = rows.get(agentId)
          // Another platform's agent is never charged (nor overwritten): refused, as the SQL adapter's guard does.
          if (stored !== undefined && stored.platformId !== platformId) return [undefined, () => {}]
          const before = asOf(stored === undefined ? undefined : counters(stored), charge.day, charge.month)
          const after: AgentUsageRepo.UsageCounters = {
            day: charge.day,
            dailySpendMinor: before.dailySpendMinor + charge.amountMinor,
            dailyCount: before.dailyCount + 1,
            month: charge.month,
            monthlySpendMinor: before.monthlySpendMinor + charge.amountMinor
          }
          const refused =
            (charge.dailyLimitMinor !== undefined && after.dailySpendMinor > charge.dailyLimitMinor) ||
            (charge.dailyCountLimit !== undefined && after.dailyCount > charge.dailyCountLimit) ||
            (charge.monthlyLimitMinor !== undefined && after.monthlySpendMinor > charge.monthlyLimitMinor)
          if (refused) return [undefined, () => {}]
          return [after, setEntry(rows, agentId, { ...after, platformId })]
        }),
      rescale: (platformId, agentId, rate) =>
        state.write((): readonly [void, () => void] => {
          const row = own(platformId, agentId)
          if (row === undefined) return [undefined, () => {}]
          return [
            undefined,
            setEntry(rows, agentId, {
              ...row,
              dailySpendMinor: (row.dailySpendMinor * rate.numerator) / rate.denominator,
              monthlySpendMinor: (row.monthlySpendMinor * rate.numerator) / rate.denominator
            })
          ]
        })
    })
  })
)
