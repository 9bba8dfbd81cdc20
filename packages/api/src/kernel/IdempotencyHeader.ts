import { IdempotencyErrors, IdempotencyRecord } from "@payrail/core"
import { wire } from "./ErrorBody.js"

/** The request header carrying the key (HTTP header names are case-insensitive). */
export const headerName = "idempotency-key"

/** The response header a replayed response carries, with the value `true`. */
export const replayedHeaderName = "idempotent-replayed"

/** The methods whose requests may carry the key: every mutating one. */
export const mutatingMethods: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * 409 `CONFLICT` with `details.rule: "idempotency_key_reused"`: the key was used on this platform for another request
 * (method, path or body). Send a new key for a new request.
 */
export const IdempotencyKeyReusedBody = wire(
  IdempotencyErrors.IdempotencyKeyReused,
  409,
  "The Idempotency-Key was already used for a different request; use a new key"
)

/**
 * 409 `CONFLICT` with `details.rule: "idempotency_key_in_progress"` and a `Retry-After` header: a request with this
 * key is still running. Retry the same request after the given seconds to get its outcome.
 */
export const IdempotencyKeyInProgressBody = wire(
  IdempotencyErrors.IdempotencyKeyInProgress,
  409,
  "A request with this Idempotency-Key is in progress; retry after the Retry-After header's seconds"
)

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const operationMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

const parameter = {
  name: headerName,
  in: "header",
  required: false,
  description:
    "Makes the request safe to retry: the first response to a key is stored (24 hours at least) and replayed, " +
    "with `Idempotent-Replayed: true`, to a retry with the same method, path and body. See the API conventions.",
  schema: {
    type: "string",
    minLength: 1,
    maxLength: IdempotencyRecord.maxKeyLength,
    pattern: IdempotencyRecord.keyPattern.source
  }
}

const idempotencyBodies = new Set(["IdempotencyKeyReused", "IdempotencyKeyInProgress"])

// A body is listed as `{$ref}` or, with its description, as `{allOf: [{$ref}], description}`.
const isIdempotencyBody = (schema: unknown): boolean =>
  isObject(schema) &&
  (typeof schema.$ref === "string"
    ? idempotencyBodies.has(schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1))
    : Array.isArray(schema.allOf) && schema.allOf.length === 1 && isIdempotencyBody(schema.allOf[0]))

// The 409 bodies are declared API-wide, so HttpApi lists them on every operation: keep them where they can occur.
const withoutIdempotencyBodies = (operation: Json): void => {
  const responses = isObject(operation.responses) ? operation.responses : {}
  const conflict = responses["409"]
  if (!isObject(conflict) || !isObject(conflict.content)) return
  const json = conflict.content["application/json"]
  if (!isObject(json) || !isObject(json.schema)) return
  if (isIdempotencyBody(json.schema)) {
    delete responses["409"]
    return
  }
  if (!Array.isArray(json.schema.anyOf)) return
  const rest = json.schema.anyOf.filter((entry) => !isIdempotencyBody(entry))
  if (rest.length === 0) delete responses["409"]
  else json.schema = rest.length === 1 ? rest[0] : { ...json.schema, anyOf: rest }
}

const retryAfter = {
  description:
    "Sent with `details.rule: idempotency_key_in_progress`: the seconds after which to retry the same request to get " +
    "its outcome.",
  schema: { type: "integer", minimum: 1 }
}

// The 409 of a mutating operation may be `idempotency_key_in_progress`, which carries `Retry-After`.
const withRetryAfter = (operation: Json): void => {
  const responses = isObject(operation.responses) ? operation.responses : {}
  const conflict = responses["409"]
  if (!isObject(conflict)) return
  const headers = isObject(conflict.headers) ? conflict.headers : {}
  conflict.headers = { ...headers, "Retry-After": retryAfter }
}

/**
 * Documents the key on every mutating operation of the OpenAPI document (the header parameter, unless the operation
 * declares it already, and `Retry-After` on its 409 answer) and keeps the two idempotency 409 bodies on those
 * operations only.
 */
export const documentHeader = (spec: Json): Json => {
  const paths = isObject(spec.paths) ? spec.paths : {}
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    for (const method of operationMethods) {
      const operation = pathItem[method]
      if (!isObject(operation)) continue
      if (!mutatingMethods.has(method.toUpperCase())) {
        withoutIdempotencyBodies(operation)
        continue
      }
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
      const declared = parameters.some(
        (entry) => isObject(entry) && entry.in === "header" && String(entry.name).toLowerCase() === headerName
      )
      if (!declared) operation.parameters = [...parameters, parameter]
      withRetryAfter(operation)
    }
  }
  return spec
}
