import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Caller, Errors } from "@payrail/core"
import { wire } from "./ErrorBody.js"

/** 401 `UNAUTHORIZED`: credentials missing or wrong. */
export const UnauthenticatedBody = wire(Errors.Unauthenticated, 401, "Credentials are missing or invalid")

/**
 * HTTP Basic with an API token: the client id is the username and the client secret the password. Provides the
 * authenticated `CurrentCaller` to handlers.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@payrail/api/Authentication", {
  failure: UnauthenticatedBody,
  provides: Caller.CurrentCaller,
  security: {
    BasicAuth: HttpApiSecurity.basic.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "API token: `<client id>:<client secret>` as HTTP Basic credentials")
    )
  }
}) {}
