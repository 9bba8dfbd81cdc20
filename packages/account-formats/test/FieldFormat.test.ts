import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { FieldFormat } from "../src/index.js"

describe("FieldFormat.CalendarDate", () => {
  const valid = Schema.is(FieldFormat.CalendarDate)

  it("accepts real dates of years 0001 to 9999, including before 1900 and leap days", () => {
    for (const date of [
      "1850-06-01",
      "0850-01-31",
      "0001-01-01",
      "0099-12-31",
      "2024-02-29",
      "2000-02-29",
      "9999-12-31"
    ]) {
      expect(valid(date), date).toBe(true)
    }
  })

  it("refuses dates that do not exist or are not YYYY-MM-DD", () => {
    for (const date of [
      "0000-01-01",
      "1900-02-29",
      "2023-02-29",
      "2026-13-01",
      "2026-04-31",
      "12345-01-01",
      "-001-01-01",
      "2026-1-01",
      "2026-01-01T00:00:00Z"
    ]) {
      expect(valid(date), date).toBe(false)
    }
  })
})
