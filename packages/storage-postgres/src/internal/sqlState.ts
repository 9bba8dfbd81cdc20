import { Option, Predicate } from "effect"

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

/**
 * The second value of the two-column key a unique violation names, from the driver's detail
 * `Key (a, b)=(<a>, <b>) already exists.` (a key may be an expression, `(a, (record ->> 'b'::text))`): `<b>`, read
 * after the first `, ` of the values (so only `<b>` may hold a comma); `undefined` when the error carries no such
 * detail.
 */
export const uniqueViolationValue = (error: unknown): string | undefined => {
  const cause = Predicate.hasProperty(error, "cause") ? error.cause : undefined
  const detail = Predicate.hasProperty(cause, "detail") ? cause.detail : undefined
  if (typeof detail !== "string") return undefined
  const values = /^Key \(.*?\)=\((.*)\) already exists\.$/s.exec(detail)?.[1]
  if (values === undefined) return undefined
  const comma = values.indexOf(", ")
  return comma < 0 ? values : values.slice(comma + 2)
}

/** The detail of a failure raised by `payrail_fail(code, detail)` (migration `0040_statement_checks`) with `code`. */
export const raised = (error: unknown, code: string): Option.Option<string> => {
  const cause = Predicate.hasProperty(error, "cause") ? error.cause : undefined
  return Predicate.hasProperty(cause, "code") &&
    cause.code === "P0001" &&
    Predicate.hasProperty(cause, "message") &&
    cause.message === code &&
    Predicate.hasProperty(cause, "detail") &&
    typeof cause.detail === "string"
    ? Option.some(cause.detail)
    : Option.none()
}
