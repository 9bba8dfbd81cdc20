import { DateTime } from "effect"

/**
 * The days and months agents' usage counts in: UTC days and months of the platform's time (a sandbox platform's
 * clock can be advanced, which rolls them over).
 */
export interface UsagePeriod {
  /** `YYYY-MM-DD`: the day daily counters count. */
  readonly day: string
  /** `YYYY-MM`: the month the monthly counter counts. */
  readonly month: string
  /** `YYYY-MM-DD`: the day the daily counters next start from zero (the reference's `dailyResetDate`). */
  readonly dailyResetDate: string
  /** `YYYY-MM`: the month the monthly counter next starts from zero (the reference's `monthlyResetMonth`). */
  readonly monthlyResetMonth: string
}

const isoDay = (at: DateTime.Utc): string => DateTime.formatIso(at).slice(0, 10)

/** The usage period `at` falls in. */
export const periodOf = (at: DateTime.Utc): UsagePeriod => {
  const parts = DateTime.toPartsUtc(at)
  const firstOfNextMonth = DateTime.unsafeMake({ year: parts.year, month: parts.month + 1, day: 1 })
  return {
    day: isoDay(at),
    month: isoDay(at).slice(0, 7),
    dailyResetDate: isoDay(DateTime.add(DateTime.startOf(at, "day"), { days: 1 })),
    monthlyResetMonth: isoDay(firstOfNextMonth).slice(0, 7)
  }
}
