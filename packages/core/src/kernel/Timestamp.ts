import { DateTime, Schema } from "effect"

/** The first and last years a timestamp of the API may carry. */
export const minYear = 1
export const maxYear = 9999

/**
 * Whether every adapter stores the instant and every client reads it back in plain ISO 8601: the years 0001 to 9999.
 * Year 0, negative years and years past 9999 take a sign and six digits in ISO 8601 (`+012345-…`), which PostgreSQL
 * does not read.
 */
export const isStorable = (instant: DateTime.Utc): boolean => {
  const year = DateTime.getPartUtc(instant, "year")
  return year >= minYear && year <= maxYear
}

/** An ISO 8601 timestamp (UTC) in the years 0001 to 9999; anything else is a field error, never a store failure. */
export const Timestamp = Schema.DateTimeUtc.pipe(
  Schema.filter(isStorable, { description: "an ISO 8601 timestamp in the years 0001 to 9999" })
)

/**
 * A formatter of instants to ISO 8601 text (`DateTime.formatIso`) that formats each distinct instant once: for
 * encoding many records at once whose times are mostly one instant (a batch's `now`).
 */
export const isoFormatter = (): ((instant: DateTime.Utc) => string) => {
  const texts = new Map<number, string>()
  return (instant) => {
    const millis = DateTime.toEpochMillis(instant)
    const known = texts.get(millis)
    if (known !== undefined) return known
    const text = DateTime.formatIso(instant)
    texts.set(millis, text)
    return text
  }
}
