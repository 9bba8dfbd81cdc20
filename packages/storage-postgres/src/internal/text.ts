import { Array as Arr, Effect } from "effect"

/**
 * Whether PostgreSQL's `text` can hold `value`: it cannot hold NUL (the server refuses such a parameter), so no
 * stored value contains one, and a lookup by such a value finds nothing without asking the database.
 */
export const storable = (value: string): boolean => !value.includes("\u0000")

/**
 * Which of `values` a query says are taken: one query for the distinct, storable ones (a value holding NUL is
 * never stored, so never taken), none when that leaves nothing.
 */
export const takenAmong = <E>(
  values: ReadonlyArray<string>,
  query: (values: Arr.NonEmptyReadonlyArray<string>) => Effect.Effect<ReadonlyArray<{ readonly value: string }>, E>
): Effect.Effect<ReadonlySet<string>, E> => {
  const wanted = Arr.dedupe(values.filter(storable))
  return Arr.isNonEmptyReadonlyArray(wanted)
    ? Effect.map(query(wanted), (rows) => new Set(rows.map((row) => row.value)))
    : Effect.succeed(new Set())
}
