import { Schema } from "effect"

/**
 * A row whose `record` column holds the encoded `schema` (a `jsonb` column, which both drivers read as JSON),
 * decoded to the record itself: the result schema of a `SELECT record …`.
 */
export const record = <A, I, R>(schema: Schema.Schema<A, I, R>): Schema.Schema<A, { readonly record: I }, R> =>
  Schema.pluck(Schema.Struct({ record: schema }), "record")

/** A row `{ count }` (a `count(*)::int` or a `sum(…)::int`), decoded to the count. */
export const Count: Schema.Schema<number, { readonly count: number }> = Schema.pluck(
  Schema.Struct({ count: Schema.NonNegativeInt }),
  "count"
)

/** A row `{ id }` of an `INSERT` or guarded `UPDATE … RETURNING id`: its presence says the statement applied. */
export const Returned = Schema.Struct({ id: Schema.String })
