import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import { Cause, Effect, Layer, Option, Schema } from "effect"
import { BulkImportLimits, DocumentLimits, Errors, FieldError, InvalidInput, KycLink } from "@payrail/core"
import { Authentication, FieldErrorReport, HttpErrors, PayrailApi } from "@payrail/api"
import { guarded } from "./internal/jsonBody.js"
import { isLoosePath } from "./internal/loosePath.js"
import { makeAllowedMethods } from "./internal/routeTable.js"
import { RateLimitedResponse } from "../platforms/index.js"

/** The largest request body accepted, in bytes (1 MiB). */
export const maxBodyBytes = 1024 * 1024

type ApiError = Schema.Schema.Type<(typeof PayrailApi.PayrailApi)["errorSchema"]>

const allowedMethods = makeAllowedMethods(PayrailApi.PayrailApi)
const bodyMethods = new Set(["POST", "PUT", "PATCH"])
// Decoded from the URL alone: run without the body limit's fiber-local setting (each setting costs a scoped change
// of a fiber reference on every request).
const urlOnlyMethods = new Set(["GET", "HEAD"])

const errorSchemas = (() => {
  const api = PayrailApi.PayrailApi as unknown as {
    readonly errorSchema: Schema.Schema.Any
    readonly groups: Record<
      string,
      {
        readonly errorSchema: Schema.Schema.Any
        readonly endpoints: Record<string, { readonly errorSchema: Schema.Schema.Any }>
      }
    >
  }
  const schemas = [api.errorSchema]
  for (const group of Object.values(api.groups)) {
    schemas.push(group.errorSchema)
    for (const endpoint of Object.values(group.endpoints)) schemas.push(endpoint.errorSchema)
  }
  return schemas.map((schema) => Schema.is(Schema.typeSchema(schema)))
})()

/** Whether the API declares this failure, so HttpApi encodes it with its own status. */
const isDeclared = (error: unknown): boolean => errorSchemas.some((is) => is(error))

const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())

const malformedBody = InvalidInput.InvalidInput.withErrors(
  [new FieldError.FieldError({ field: "body", message: "must be a JSON document" })],
  "The request body is not valid JSON"
)

const payloadTooLarge = new HttpErrors.PayloadTooLarge({
  code: "PAYLOAD_TOO_LARGE",
  reason: `The request body exceeds ${maxBodyBytes} bytes`
})

/**
 * The description of the `RequestError` a body reader fails with when the body passes `HttpIncomingMessage.MaxBodySize`:
 * `mapFailures` answers it 413 `PAYLOAD_TOO_LARGE`.
 */
export const bodyTooLargeDescription = "The request body exceeds the size limit"

// @effect/platform's own readers stop at MaxBodySize with "maxBytes exceeded" (Node) or a size error as the cause.
const isBodyTooLarge = (error: HttpServerError.RequestError): boolean =>
  error.description === bodyTooLargeDescription ||
  /maxBytes|size|limit|too large/i.test(`${String(error.description ?? "")} ${String(error.cause)}`)

const declaredLengthTooLarge = (request: HttpServerRequest.HttpServerRequest, limit: number): boolean => {
  const length = Number(request.headers["content-length"] ?? "0")
  return Number.isFinite(length) && length > limit
}

/** What a document form may carry beyond its file: the fields, the part headers and the boundaries. */
export const documentFormOverheadBytes = 64 * 1024

const documentUploadPath = new RegExp(`^${PayrailApi.basePath}/documents(?:/[^/]+)?$`)

/**
 * Whether the request is a document upload (`POST /documents`, `PUT /documents/{id}`) sent as multipart form data:
 * the only bodies that are not JSON, streamed under the document limit rather than the JSON body limit.
 */
const isDocumentUpload = (request: HttpServerRequest.HttpServerRequest, contentType: string | undefined): boolean =>
  contentType !== undefined &&
  /^multipart\/form-data\b/i.test(contentType.trim()) &&
  (request.method === "POST" || request.method === "PUT") &&
  documentUploadPath.test(pathOf(request)) &&
  (request.method === "PUT") === (pathOf(request) !== `${PayrailApi.basePath}/documents`)

const bulkImportUploadPath = `${PayrailApi.basePath}/customers/bulk/csv`

/**
 * Whether the request is a bulk customer import (`POST /customers/bulk/csv`) sent as multipart form data: streamed
 * under the bulk import limit (`BulkImportLimits`, 64 MiB by default) rather than the JSON body limit.
 */
const isBulkImportUpload = (request: HttpServerRequest.HttpServerRequest, contentType: string | undefined): boolean =>
  contentType !== undefined &&
  /^multipart\/form-data\b/i.test(contentType.trim()) &&
  request.method === "POST" &&
  pathOf(request) === bulkImportUploadPath

const encodeUnauthenticated = Schema.encodeSync(Authentication.UnauthenticatedBody)
const encodeMethodNotAllowed = Schema.encodeSync(PayrailApi.MethodNotAllowedBody)

// 401 and 405 carry a header beside the error body, so they are answered here rather than through HttpApi.
const unauthenticated = (error: Errors.Unauthenticated) =>
  HttpServerResponse.unsafeJson(encodeUnauthenticated(error), {
    status: 401,
    headers: { "www-authenticate": 'Basic realm="payrail", charset="UTF-8"' }
  })

const pathOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://localhost").pathname

// The reason names no part of the path: an error never repeats what the client sent.
const noRoute = new HttpErrors.RouteNotFound({ code: "NOT_FOUND", reason: "No route matches this path" })

const routeNotFound = (request: HttpServerRequest.HttpServerRequest) => {
  const methods = allowedMethods(pathOf(request))
  if (methods.length === 0) return Effect.fail(noRoute)
  const error = new HttpErrors.MethodNotAllowed({
    code: "METHOD_NOT_ALLOWED",
    reason: `${request.method} is not allowed here`,
    details: { allowedMethods: methods }
  })
  return Effect.succeed(
    HttpServerResponse.unsafeJson(encodeMethodNotAllowed(error), {
      status: 405,
      headers: { allow: methods.join(", ") }
    })
  )
}

const internalError = new HttpErrors.InternalError({
  code: "INTERNAL_ERROR",
  reason: "The service failed unexpectedly"
})

const translate = (
  request: HttpServerRequest.HttpServerRequest,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError> => {
  const error = Cause.squash(cause)
  if (error instanceof HttpApiError.HttpApiDecodeError) {
    return Effect.fail(InvalidInput.InvalidInput.withErrors(FieldErrorReport.fieldErrorsOf(error)))
  }
  if (error instanceof HttpServerError.RouteNotFound) return routeNotFound(request)
  if (error instanceof HttpServerError.RequestError) {
    return Effect.fail(isBodyTooLarge(error) ? payloadTooLarge : malformedBody)
  }
  if (error instanceof Errors.Unauthenticated) return Effect.succeed(unauthenticated(error))
  if (error instanceof Errors.RateLimited) return Effect.succeed(RateLimitedResponse.of(error))
  if (error instanceof Errors.StoreFailure) {
    return Effect.logError("store failure", error.operation, Cause.fail(error.cause)).pipe(
      Effect.zipRight(Effect.fail(error))
    )
  }
  if (isDeclared(error)) return Effect.fail(error as ApiError)
  return Effect.logError("unhandled failure", cause).pipe(Effect.zipRight(Effect.fail(internalError)))
}

/**
 * A streamed multipart upload whose file may hold `maxFileBytes` (the form's other fields beside it): a declared
 * length over the limit is 413 before anything is read, and the body is cut at the limit as it arrives (413 from
 * the handler); any other failure is translated as every request's is.
 */
const streamedUpload = (app: HttpApp.Default, request: HttpServerRequest.HttpServerRequest, maxFileBytes: number) => {
  const limit = maxFileBytes + documentFormOverheadBytes
  return declaredLengthTooLarge(request, limit)
    ? Effect.fail(
        new HttpErrors.PayloadTooLarge({
          code: "PAYLOAD_TOO_LARGE",
          reason: `The request body exceeds ${limit} bytes (files up to ${maxFileBytes} bytes)`
        })
      )
    : app.pipe(
        HttpIncomingMessage.withMaxBodySize(Option.some(limit)),
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : translate(request, cause)
        )
      )
}

/**
 * Wraps the whole API so that every failure leaves as the spec's error body with its status: decode failures as
 * 400 `INVALID_INPUT` listing every field, malformed JSON as 400, a wrong content type as 415, an unknown route as
 * 404 (as is a path the router would only match loosely, with a `;` or an empty segment; 405 with `Allow` when only
 * the method is wrong), missing or wrong credentials as 401 with `WWW-Authenticate`, a rate limit's refusal as 429
 * with `Retry-After`, a body object holding a key that shadows `Object.prototype` (`toString`, `__proto__`…) as a
 * 400 field error, and anything unexpected as 500 `INTERNAL_ERROR` with the cause logged, never sent.
 */
export const mapFailures = (app: HttpApp.Default): HttpApp.Default<ApiError> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (isLoosePath(pathOf(request))) return yield* Effect.fail(noRoute)
    // The hosted verification page reads HTML forms and uploads and answers every failure with a page of its own.
    if (pathOf(request).startsWith(`${KycLink.pagePath}/`)) return yield* app
    const contentType = request.headers["content-type"]
    if (isBulkImportUpload(request, contentType)) {
      // Streamed: the file is read under this limit as it arrives, and a body cut at it answers 413 (the handler).
      const { maxFileBytes } = yield* BulkImportLimits.BulkImportLimits
      return yield* streamedUpload(app, request, maxFileBytes)
    }
    if (isDocumentUpload(request, contentType)) {
      // Streamed: the file is checked against the document limit as it arrives (413 from the handler); the body
      // as a whole may carry the form's fields beside it.
      const { maxFileBytes } = yield* DocumentLimits.DocumentLimits
      return yield* streamedUpload(app, request, maxFileBytes)
    }
    if (bodyMethods.has(request.method) && contentType !== undefined && !isJson(contentType)) {
      return yield* Effect.fail(
        new HttpErrors.UnsupportedMediaType({
          code: "UNSUPPORTED_MEDIA_TYPE",
          reason: "The request body must be application/json"
        })
      )
    }
    if (declaredLengthTooLarge(request, maxBodyBytes)) return yield* Effect.fail(payloadTooLarge)
    return yield* app.pipe(
      bodyMethods.has(request.method)
        ? Effect.provideService(HttpServerRequest.HttpServerRequest, guarded(request))
        : (effect) => effect,
      urlOnlyMethods.has(request.method)
        ? (effect) => effect
        : HttpIncomingMessage.withMaxBodySize(Option.some(maxBodyBytes)),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : translate(request, cause)
      )
    )
  })

/** The API-level middleware layer applying `mapFailures`. */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware(PayrailApi.PayrailApi, mapFailures)
