import { HttpRouter } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Caller, Authentication as CoreAuthentication } from "@payrail/core"
import { Authentication } from "@payrail/api"
import * as EndpointPermissions from "./EndpointPermissions.js"

/**
 * Basic-auth security backed by core's `Authentication`: the username is the token's client id, the password its
 * secret. It runs before the path, query and body are decoded, and it also checks the permission the endpoint
 * requires (`EndpointPermissions`): a token without it is refused 403 before any input is read or validated. A
 * store failure while checking credentials is a 500, never a 401.
 */
export const layer = Layer.effect(
  Authentication.Authentication,
  Effect.map(CoreAuthentication.Authentication, (authentication) => ({
    BasicAuth: (credentials) =>
      Effect.gen(function* () {
        const caller = yield* authentication.authenticate(credentials.username, credentials.password)
        const { route } = yield* HttpRouter.RouteContext
        const permission = EndpointPermissions.required(route.method, route.path)
        if (permission === undefined) return caller
        // The middleware's declared failure is the 401 body alone: a refusal leaves as a defect that
        // ErrorMapping answers with the group's declared 403 body.
        return yield* Caller.require(permission).pipe(
          Effect.provideService(Caller.CurrentCaller, caller),
          Effect.catchTag("PermissionDenied", Effect.die)
        )
      }).pipe(Effect.catchTag("StoreFailure", Effect.die))
  }))
)
