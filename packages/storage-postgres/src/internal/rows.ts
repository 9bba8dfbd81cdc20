import { Schema } from "effect"

/**
 * A row whose `record` column holds the encoded `schema` (a `jsonb` column, which both drivers read as JSON),
 * decoded to the record itself: the result schema of a `SELECT record …`.
 */
export const record = <A, I, R>(schema: Schema.Schema<A, I, R>): Schema.Schema<A, { readonly record: I }, R> =>
  Schema.pluck(Schema.Struct({ record: schema }), "record")
