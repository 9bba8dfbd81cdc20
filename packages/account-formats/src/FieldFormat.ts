import { Schema } from "effect"

/**
 * Field formats shared by request schemas. Each carries a `jsonSchema` annotation (`format`, `pattern`,
 * `minLength`, `maxLength`) that the OpenAPI document shows and that a validation failure reports as the field's
 * `constraint`, so clients learn the rule without the offending value being echoed back.
 */

// PostgreSQL stores neither NUL (text or jsonb) nor an unpaired UTF-16 surrogate (jsonb refuses the `\ud800`
// escape, and UTF-8 has no encoding for it); refusing both here keeps every adapter equal and every such request a 400.
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether every adapter can store the text as given: no NUL character and no unpaired UTF-16 surrogate. */
export const isStorableText = (value: string): boolean => !value.includes("\u0000") && !unpairedSurrogate.test(value)

/**
 * Any string every adapter can store and every client can read back as UTF-8: no NUL character and no unpaired
 * UTF-16 surrogate (so `"\ud800"` is a field error, while emoji and right-to-left marks are kept). The base of every
 * free-text field of a request.
 */
export const StorableText = Schema.String.pipe(
  Schema.filter(isStorableText, {
    description: "text without NUL characters or unpaired UTF-16 surrogates",
    jsonSchema: { pattern: "^[^\\u0000]*$" }
  })
)

/** Text of 1 to `maxLength` characters that is not only white space and holds no NUL or unpaired surrogate. */
export const Text = (maxLength: number) =>
  StorableText.pipe(
    Schema.minLength(1, { description: "a non-empty string" }),
    Schema.maxLength(maxLength, { description: `a string of at most ${maxLength} characters` }),
    Schema.filter((value) => value.trim().length > 0, {
      description: "a string that is not only white space",
      jsonSchema: { pattern: "^(?=[\\s\\S]*\\S)[^\\u0000]*$" }
    })
  )

const emailPattern =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

/** An email address (`local@domain.tld`), at most 254 characters. */
export const Email = StorableText.pipe(
  Schema.maxLength(254, { description: "an email address of at most 254 characters" }),
  Schema.filter((value) => emailPattern.test(value), {
    description: "an email address",
    jsonSchema: { format: "email" }
  }),
  Schema.annotations({ identifier: "Email" })
)

/** A phone number in E.164 form: `+`, country code and subscriber number, 2 to 15 digits. */
export const PhoneNumber = Schema.String.pipe(
  Schema.pattern(/^\+[1-9]\d{1,14}$/, { description: "a phone number in E.164 format" }),
  Schema.annotations({ identifier: "PhoneNumber", jsonSchema: { format: "e.164", pattern: "^\\+[1-9]\\d{1,14}$" } })
)

const isCalendarDate = (value: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * A calendar date `YYYY-MM-DD` that exists, in the years 0001 to 9999 (a business incorporated in 1850 is real).
 * Whether a date may lie in the future is a rule of the field that uses it, checked against the clock.
 */
export const CalendarDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, {
    description: "a calendar date in the form YYYY-MM-DD",
    jsonSchema: { format: "date" }
  }),
  Schema.annotations({ identifier: "CalendarDate" })
)

/** A US social security number or ITIN in the form `###-##-####`. */
export const UsTaxIdentifier = Schema.String.pipe(
  Schema.pattern(/^\d{3}-\d{2}-\d{4}$/, { description: "a US SSN or ITIN in the form ###-##-####" }),
  Schema.annotations({ jsonSchema: { format: "us-ssn", pattern: "^\\d{3}-\\d{2}-\\d{4}$" } })
)
