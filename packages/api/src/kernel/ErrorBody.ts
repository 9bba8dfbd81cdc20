import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Schema } from "effect"

/**
 * The error body every failure leaves as: `{status, code, message, reason, details?}`. `code`, `reason` and
 * `details` are the spec's; `status` (the HTTP status) and `message` (the same text as `reason`) are the public API's
 * names for them, so clients written for it show the message and branch on the status unchanged.
 */
export const ErrorBody = Schema.Struct({
  status: Schema.Int.annotations({ description: "The HTTP status of the response" }),
  code: Schema.String,
  message: Schema.String.annotations({ description: "The same text as `reason`" }),
  reason: Schema.String,
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}).annotations({ identifier: "Error" })

/** A tagged error class whose fields include the spec's `code` and `reason` (and optionally `details`). */
type ErrorClass = Schema.Schema.AnyNoContext & {
  readonly _tag: string
  readonly fields: Schema.Struct.Fields & { readonly code: Schema.Struct.Field; readonly reason: Schema.Struct.Field }
}

type SpecKey = "code" | "reason" | "details"
const specKeys: ReadonlyArray<SpecKey> = ["code", "reason", "details"]

/** The spec's fields (`code`, `reason`, `details` where present) of an error class, or of an error. */
const specFields = <F extends object>(from: F): Pick<F, Extract<keyof F, SpecKey>> => {
  const picked: Partial<Record<SpecKey, unknown>> = {}
  for (const key of specKeys) if (key in from) picked[key] = from[key as keyof F]
  return picked as Pick<F, Extract<keyof F, SpecKey>>
}

type WireFields<F> = {
  readonly status: Schema.Literal<[number]>
  readonly message: Schema.Schema<string>
} & Pick<F, Extract<keyof F, SpecKey>>

/**
 * The wire form of a domain error with its HTTP status: the error class on the typed side, and on the wire exactly
 * `{status, code, message, reason, details?}` with `message` equal to `reason`: no `_tag`, no cause, nothing
 * internal. Matching on the typed side is by class, so errors with equal fields never encode as one another.
 */
export const wire = <C extends ErrorClass>(errorClass: C, status: number, description: string) => {
  const fields: WireFields<C["fields"]> = Object.assign(
    {
      status: Schema.Literal(status),
      message: Schema.String.annotations({ description: "The same text as `reason`" })
    },
    specFields<C["fields"]>(errorClass.fields)
  )
  const body = Schema.Struct(fields).annotations({ identifier: errorClass._tag, description })
  return Schema.transform(body, errorClass, {
    strict: false,
    decode: (wireBody) => ({ ...specFields(wireBody), _tag: errorClass._tag }),
    encode: (error) => {
      const { code, details, reason } = specFields<Partial<Record<SpecKey, unknown>>>(error)
      return { status, code, message: reason, reason, ...(details === undefined ? {} : { details }) }
    }
  }).annotations(HttpApiSchema.annotations({ status, description }))
}
