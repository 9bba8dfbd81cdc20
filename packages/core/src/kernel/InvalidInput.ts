import { Schema } from "effect"
import { FieldError } from "./FieldError.js"

/** The request breaks the contract; `details.errors` lists every invalid field. Spec code `INVALID_INPUT`. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.optional(Schema.Struct({ errors: Schema.Array(FieldError) }))
}) {
  /** An `INVALID_INPUT` failure naming the given fields. */
  static withErrors(errors: ReadonlyArray<FieldError>, reason = "The request has invalid fields"): InvalidInput {
    return new InvalidInput({ reason, details: { errors } })
  }

  /** An `INVALID_INPUT` failure naming one field (dot path) and what it must be. */
  static onField(field: string, message: string): InvalidInput {
    return InvalidInput.withErrors([new FieldError({ field, message })])
  }
}
