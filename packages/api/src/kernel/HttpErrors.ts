import { Schema } from "effect"

/** Failures that belong to HTTP itself rather than to the domain; each leaves as the spec's error body. */

/** No route matches the path. Code `NOT_FOUND` (404). */
export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()("RouteNotFound", {
  code: Schema.Literal("NOT_FOUND"),
  reason: Schema.String
}) {}

/** The path exists but not with this method. Code `METHOD_NOT_ALLOWED` (405). */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  code: Schema.Literal("METHOD_NOT_ALLOWED"),
  reason: Schema.String,
  details: Schema.Struct({ allowedMethods: Schema.Array(Schema.String) })
}) {}

/** The body is not `application/json`. Code `UNSUPPORTED_MEDIA_TYPE` (415). */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: Schema.Literal("UNSUPPORTED_MEDIA_TYPE"),
  reason: Schema.String
}) {}

/** The body is larger than the server accepts. Code `PAYLOAD_TOO_LARGE` (413). */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  code: Schema.Literal("PAYLOAD_TOO_LARGE"),
  reason: Schema.String
}) {}

/** Something unexpected failed; details stay in the server's logs. Code `INTERNAL_ERROR` (500). */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  code: Schema.Literal("INTERNAL_ERROR"),
  reason: Schema.String
}) {}

/**
 * The request line and headers together are larger than the server reads (Node's `maxHeaderSize`). Code
 * `REQUEST_HEADERS_TOO_LARGE` (431); `details.maxHeaderBytes` is the limit.
 */
export class RequestHeadersTooLarge extends Schema.TaggedError<RequestHeadersTooLarge>()("RequestHeadersTooLarge", {
  code: Schema.Literal("REQUEST_HEADERS_TOO_LARGE"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("max_header_size"), maxHeaderBytes: Schema.Int })
}) {}
