import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
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
 * HTTP Basic with an API token: the client id is the username and the client secret the password. Provides the
 * authenticated `CurrentCaller` to handlers.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@payrail/api/Authentication", {
  failure: UnauthenticatedBody,
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
