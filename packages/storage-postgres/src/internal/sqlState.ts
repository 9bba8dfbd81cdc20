import { Predicate } from "effect"

/**
 * Whether a statement failed on the unique constraint named `constraint` (SQLSTATE 23505). `pg` and PGlite both
 * report the driver's `DatabaseError` as the `SqlError`'s cause, with `code` and `constraint` fields.
 */
export const isUniqueViolation = (error: unknown, constraint: string): boolean => {
  if (!Predicate.isTagged(error, "SqlError") || !Predicate.hasProperty(error, "cause")) return false
  const cause = error.cause
  return (
    Predicate.hasProperty(cause, "code") &&
    cause.code === "23505" &&
    Predicate.hasProperty(cause, "constraint") &&
    cause.constraint === constraint
  )
}
