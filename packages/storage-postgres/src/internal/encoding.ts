import { Effect } from "effect"

// Values are bound as text and PostgreSQL converts them to the column's type: `pg` and PGlite both send a string
// unchanged, whereas each serializes objects and `Date`s its own way. Request schemas encode timestamps to
// ISO-8601 text and amounts to decimal text; records to their encoded form, which `jsonText` serializes.

/** The JSON text of an encoded record, for a `jsonb` column (`::jsonb` where no column gives the type). */
export const jsonText = (encoded: unknown): Effect.Effect<string, unknown> => Effect.try(() => JSON.stringify(encoded))
