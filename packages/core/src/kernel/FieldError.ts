import { Array as Arr, Option, ParseResult, Schema, SchemaAST as AST } from "effect"
import * as SchemaClass from "./SchemaClass.js"

/** Machine-readable hints about the rule a field broke. All optional; new keys may be added. */
export const FieldConstraint = Schema.Struct({
  format: Schema.optional(Schema.String),
  pattern: Schema.optional(Schema.String),
  enum: Schema.optional(Schema.Array(Schema.String)),
  minLength: Schema.optional(Schema.Int),
  maxLength: Schema.optional(Schema.Int)
}).annotations({ identifier: "FieldConstraint" })
export type FieldConstraint = typeof FieldConstraint.Type

/** One invalid field: its dot path (`address.postalCode`, `tags.1`), the rule it broke and a readable message. */
export class FieldError extends SchemaClass.Class<FieldError>("FieldError")({
  field: Schema.String,
  constraint: Schema.optional(FieldConstraint),
  message: Schema.optional(Schema.String)
}) {}

type Constraint = { -readonly [K in keyof FieldConstraint]?: FieldConstraint[K] }

const renderPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0
    ? "body"
    : path.map((key) => (typeof key === "symbol" ? (key.description ?? "") : String(key))).join(".")

const literalsOf = (ast: AST.AST): Array<string> => {
  if (AST.isLiteral(ast)) return ast.literal === null ? [] : [String(ast.literal)]
  if (AST.isUnion(ast)) return ast.types.flatMap(literalsOf)
  if (AST.isRefinement(ast) || AST.isTransformation(ast)) return []
  return []
}

const constraintOf = (ast: AST.AST): Constraint => {
  const constraint: Constraint = {}
  const enumValues = literalsOf(ast)
  if (enumValues.length > 0) constraint.enum = enumValues
  const annotation = AST.getJSONSchemaAnnotation(ast)
  if (Option.isSome(annotation)) {
    const json = annotation.value as Record<string, unknown>
    if (typeof json.format === "string") constraint.format = json.format
    if (typeof json.pattern === "string") constraint.pattern = json.pattern
    if (typeof json.minLength === "number") constraint.minLength = json.minLength
    if (typeof json.maxLength === "number") constraint.maxLength = json.maxLength
  }
  return constraint
}

const describe = (ast: AST.AST): string => {
  const enumValues = literalsOf(ast)
  if (enumValues.length > 0) return `one of ${enumValues.join(", ")}`
  const description = AST.getDescriptionAnnotation(ast)
  if (Option.isSome(description)) return description.value
  switch (ast._tag) {
    case "TypeLiteral":
      return "an object"
    case "TupleType":
      return "an array"
    case "Transformation":
      return describe(ast.to)
    case "Refinement":
      return describe(ast.from)
    default:
      return "a valid value"
  }
}

const fieldError = (path: ReadonlyArray<PropertyKey>, ast: AST.AST, message: string): FieldError => {
  const constraint = constraintOf(ast)
  return new FieldError({
    field: renderPath(path),
    message,
    ...(Object.keys(constraint).length > 0 ? { constraint } : {})
  })
}

const isUndefinedMismatch = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" && AST.isUndefinedKeyword(issue.ast)

const toList = <A>(value: A | Arr.NonEmptyReadonlyArray<A>): ReadonlyArray<A> =>
  Arr.isArray(value) ? (value as ReadonlyArray<A>) : [value as A]

const collect = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>): Array<FieldError> => {
  switch (issue._tag) {
    case "Pointer":
      return collect(issue.issue, [...path, ...toList<PropertyKey>(issue.path)])
    case "Missing":
      return [new FieldError({ field: renderPath(path), message: "is required" })]
    case "Unexpected":
      return [new FieldError({ field: renderPath(path), message: "is not allowed" })]
    case "Forbidden":
      return [new FieldError({ field: renderPath(path), message: "could not be checked" })]
    case "Type":
      return [fieldError(path, issue.ast, `must be ${describe(issue.ast)}`)]
    case "Refinement":
      return issue.kind === "From"
        ? collect(issue.issue, path)
        : [fieldError(path, issue.ast, `must be ${describe(issue.ast)}`)]
    case "Transformation":
      return issue.kind === "Transformation"
        ? [fieldError(path, issue.ast, `must be ${describe(issue.ast)}`)]
        : collect(issue.issue, path)
    case "Composite": {
      // An optional field is `X | undefined`: the second alternative's mismatch says nothing to the client.
      const issues = toList<ParseResult.ParseIssue>(issue.issues).filter((sub) => !isUndefinedMismatch(sub))
      if (AST.isUnion(issue.ast) && issues.every((sub) => sub._tag === "Type")) {
        return [fieldError(path, issue.ast, `must be ${describe(issue.ast)}`)]
      }
      return issues.flatMap((sub) => collect(sub, path))
    }
  }
}

/**
 * Every invalid field named by a parse issue, one entry per field (the first problem found for it), in the order
 * the fields were checked. Messages state the rule, never the offending value.
 */
export const fromParseIssue = (issue: ParseResult.ParseIssue): ReadonlyArray<FieldError> => {
  const seen = new Set<string>()
  return collect(issue, []).filter((error) => {
    if (seen.has(error.field)) return false
    seen.add(error.field)
    return true
  })
}
