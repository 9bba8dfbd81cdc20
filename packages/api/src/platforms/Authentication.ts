import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Caller, Errors } from "@payrail/core"
import { ErrorBody } from "../kernel/index.js"

/** 401 `UNAUTHORIZED`: credentials missing or wrong. */
export const UnauthenticatedBody = ErrorBody.wire(Errors.Unauthenticated, 401, "Credentials are missing or invalid")

/** 403 `FORBIDDEN`: the API token lacks a permission the operation needs (`details.requiredPermission`). */
export const PermissionDeniedBody = ErrorBody.wire(
  Errors.PermissionDenied,
  403,
  "The API token lacks a required permission"
)

/**
 * 429 `RATE_LIMITED`: a rate limit refused the request (`details.limit` names it); retry after the `Retry-After`
 * header's seconds (also `details.retryAfterSeconds`).
 */
export const RateLimitedBody = ErrorBody.wire(
  Errors.RateLimited,
  429,
  "Too many requests: a rate limit (named in `details.limit`) refused it; retry after the `Retry-After` header's seconds"
)

/**
 * HTTP Basic with an API token: the client id is the username and the client secret the password. Provides the
 * authenticated `CurrentCaller` to handlers. Every authenticated operation can answer 401 and 429 (failed
 * authentication limits per client id and source address, and the request limit per token).
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@payrail/api/Authentication", {
  failure: Schema.Union(UnauthenticatedBody, RateLimitedBody),
  provides: Caller.CurrentCaller,
  security: {
    BasicAuth: HttpApiSecurity.basic.pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "API token: `<client id>:<client secret>` as HTTP Basic credentials"
      )
    )
  }
}) {}
