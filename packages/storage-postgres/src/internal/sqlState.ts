import type { SqlError } from "@effect/sql/SqlError"

/**
 * Whether the statement failed on the unique constraint named `constraint` (SQLSTATE 23505). `pg` and PGlite both
 * report the driver's `DatabaseError` as the `SqlError`'s cause, with `code` and `constraint` fields.
 */
export const isUniqueViolation = (error: SqlError, constraint: string): boolean => {
  const cause = error.cause
  return (
    typeof cause === "object" &&
    cause !== null &&
    "code" in cause &&
    cause.code === "23505" &&
    "constraint" in cause &&
    cause.constraint === constraint
  )
}
