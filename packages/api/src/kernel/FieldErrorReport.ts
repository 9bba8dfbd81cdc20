import type * as HttpApiError from "@effect/platform/HttpApiError"
import { Either, Option, Schema, SchemaAST } from "effect"
import { FieldError } from "@payrail/core"

/*
 * HttpApi decodes path, query and body before a handler runs and keeps only a flattened list of messages, which
 * loses the schema annotations that say which rule a field broke (DESIGN §8; Effect-TS/effect#5465). A schema
 * wrapped by `reportFieldErrors` renders its whole parse issue, at its root, into one message carrying the
 * complete field list; `fieldErrorsOf` reads it back on the way out.
 */

const marker = "payrail.field-errors:"
const FieldErrors = Schema.parseJson(Schema.Array(FieldError.FieldError))

/**
 * Makes `schema` report every invalid field (with constraints) when HttpApi decodes it. Parse options the schema
 * declares itself (a body's `onExcessProperty: "error"`) are kept.
 */
export const reportFieldErrors = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({
    parseOptions: { ...Option.getOrUndefined(SchemaAST.getParseOptionsAnnotation(schema.ast)), errors: "all" },
    message: (issue) => ({
      message: `${marker}${JSON.stringify(Schema.encodeSync(Schema.Array(FieldError.FieldError))(FieldError.fromParseIssue(issue)))}`,
      override: true
    })
  }) as S

const withoutActualValue = (message: string) => message.replace(/,\s*actual[\s\S]*$/, "")

/** The invalid fields named by a decode failure, without ever repeating the offending values. */
export const fieldErrorsOf = (error: HttpApiError.HttpApiDecodeError): ReadonlyArray<FieldError.FieldError> =>
  fieldErrorsOfIssues(error.issues)

/**
 * The invalid fields named by flattened parse issues (`ParseResult.ArrayFormatter`'s, as a client that encodes a
 * request with the contract gets them), read the same way as a decode failure's.
 */
export const fieldErrorsOfIssues = (
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): ReadonlyArray<FieldError.FieldError> =>
  issues.flatMap((issue) => {
    if (issue.message.startsWith(marker)) {
      const decoded = Schema.decodeEither(FieldErrors)(issue.message.slice(marker.length))
      if (Either.isRight(decoded)) return decoded.right
    }
    return [
      new FieldError.FieldError({
        field: issue.path.length === 0 ? "body" : issue.path.map(String).join("."),
        message: withoutActualValue(issue.message)
      })
    ]
  })
