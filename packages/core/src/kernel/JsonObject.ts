import { Schema } from "effect"

/**
 * Any JSON value. Documented as any of the JSON types, rather than effect's `unknown` definition,
 * whose fixed `$id` may appear only once in a document that validators load whole.
 */
export const JsonValue = Schema.Union(Schema.Unknown).annotations({
  jsonSchema: { type: ["string", "number", "boolean", "object", "array", "null"] },
  description: "any JSON value"
})

/** A JSON object of any members: a free-form map such as `counterpartyInformation`. */
export const JsonObject = Schema.Record({ key: Schema.String, value: JsonValue })
export type JsonObject = typeof JsonObject.Type
