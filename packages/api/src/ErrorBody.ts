import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The error body every failure leaves as: `{code, reason, details?}`. */
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  reason: Schema.String,
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}).annotations({ identifier: "Error" })

/** A tagged error class whose fields include the spec's `code` and `reason` (and optionally `details`). */
type ErrorClass = Schema.Schema.AnyNoContext & {
  readonly _tag: string
  readonly fields: Schema.Struct.Fields
}

const wireKeys = new Set(["code", "reason", "details"])

/**
 * The wire form of a domain error with its HTTP status: the error class on the typed side, and on the wire
 * exactly `{code, reason, details?}` — no `_tag`, no cause, nothing internal. Matching on the typed side is by
 * class, so errors with equal fields never encode as one another.
 */
export const wire = <C extends ErrorClass>(errorClass: C, status: number, description: string) => {
  const fields = Object.fromEntries(Object.entries(errorClass.fields).filter(([key]) => wireKeys.has(key)))
  // The fields are the error class's own, which need no context (`ErrorClass` is `AnyNoContext`); the index-signature
  // type of the filtered record cannot show that, so it is restated here.
  const body = Schema.Struct(fields).annotations({ identifier: errorClass._tag, description }) as unknown as Schema.Schema<
    Record<string, unknown>
  >
  return Schema.transform(body, errorClass, {
    strict: false,
    decode: (body) => ({ ...body, _tag: errorClass._tag }),
    encode: (error) => Object.fromEntries(Object.entries(error).filter(([key]) => wireKeys.has(key)))
  }).annotations(HttpApiSchema.annotations({ status, description }))
}
