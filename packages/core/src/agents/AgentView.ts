import { Agent, type AgentRecord, AgentUsage } from "./Agent.js"
import type { UsagePeriod } from "./AgentCalendar.js"
import type { UsageCounters } from "./AgentUsageRepo.js"

/**
 * The `Agent` the API shows: the stored record with its usage of `period` (counters of an earlier day or month read
 * as zero), spend as integers of the policy currency's smallest unit, and the dates the counters next reset.
 */
export const of = (record: AgentRecord, counters: UsageCounters, period: UsagePeriod): Agent => {
  const sameDay = counters.day === period.day
  const sameMonth = counters.month === period.month
  return new Agent({
    id: record.id,
    name: record.name,
    customerId: record.customerId,
    isPaused: record.isPaused,
    isConnected: record.isConnected,
    policy: record.policy,
    usage: new AgentUsage({
      dailyTransactionCount: sameDay ? counters.dailyCount : 0,
      dailySpend: sameDay ? Number(counters.dailySpendMinor) : 0,
      dailyResetDate: period.dailyResetDate,
      monthlySpend: sameMonth ? Number(counters.monthlySpendMinor) : 0,
      monthlyResetMonth: period.monthlyResetMonth
    }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt
  })
}
