import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect, Layer } from "effect"
import { Caller, Authentication as CoreAuthentication } from "@payrail/core"
import { Authentication } from "@payrail/api"
import * as EndpointPermissions from "./EndpointPermissions.js"
import * as SourceAddress from "./SourceAddress.js"

/**
 * Basic-auth security backed by core's `Authentication`: the username is the token's client id, the password its
 * secret, and the request's source address (`SourceAddress`, trusting `X-Forwarded-For` only from the
 * `TrustedProxies`) is counted for failed attempts. It runs before the path, query and body are decoded, and it
 * also checks the permission the endpoint requires (`EndpointPermissions`): a token without it is refused 403
 * before any input is read or validated. A refusal by a rate limit is 429 `RATE_LIMITED` (with `Retry-After`,
 * added by `ErrorMapping`). A store failure while checking credentials is a 500, never a 401.
 */
export const layer = Layer.effect(
  Authentication.Authentication,
  Effect.gen(function* () {
    const authentication = yield* CoreAuthentication.Authentication
    const sourceOf = SourceAddress.make(yield* SourceAddress.TrustedProxies)
    return {
      BasicAuth: (credentials) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const caller = yield* authentication.authenticate(
            credentials.username,
            credentials.password,
            sourceOf(request)
          )
          const { route } = yield* HttpRouter.RouteContext
          const permission = EndpointPermissions.required(route.method, route.path)
          if (permission === undefined) return caller
          // The middleware's declared failure is the 401 body alone: a refusal leaves as a defect that
          // ErrorMapping answers with the group's declared 403 body.
          return yield* Caller.permit(caller, permission).pipe(Effect.catchTag("PermissionDenied", Effect.die))
        }).pipe(Effect.catchTag("StoreFailure", Effect.die))
    }
  })
)
