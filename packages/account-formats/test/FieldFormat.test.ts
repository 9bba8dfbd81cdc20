import { describe, expect, it } from "@effect/vitest"
import { JSONSchema, Schema } from "effect"
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

describe("FieldFormat.Text", () => {
  const schema = FieldFormat.Text(100)
  const accepted = Schema.is(schema)
  const pattern = (() => {
    const json = JSONSchema.make(schema) as { readonly allOf?: ReadonlyArray<{ readonly pattern?: string }> }
    const patterns = [json, ...(json.allOf ?? [])].flatMap((part) =>
      "pattern" in part && typeof part.pattern === "string" ? [part.pattern] : []
    )
    return patterns.map((source) => new RegExp(source, "u"))
  })()

  it("publishes patterns that accept exactly the text it accepts, blank first lines included", () => {
    expect(pattern.length).toBeGreaterThan(0)
    for (const text of [
      "a",
      "\r\nabc",
      "\n\n x",
      "  padded  ",
      "\u00a0x",
      "line one\nline two",
      " ",
      "\r\n",
      "\t\n "
    ]) {
      const published = pattern.every((regex) => regex.test(text))
      expect({ text, published }).toEqual({ text, published: accepted(text) })
    }
  })
})
