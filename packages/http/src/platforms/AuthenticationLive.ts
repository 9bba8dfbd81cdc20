import { Effect, Layer } from "effect"
import { Authentication as CoreAuthentication } from "@payrail/core"
import { Authentication } from "@payrail/api"

/**
 * Basic-auth security backed by core's `Authentication`: the username is the token's client id, the password its
 * secret. A store failure while checking credentials is a 500, never a 401.
 */
export const layer = Layer.effect(
  Authentication.Authentication,
  Effect.map(CoreAuthentication.Authentication, (authentication) => ({
    BasicAuth: (credentials) =>
      authentication
        .authenticate(credentials.username, credentials.password)
        .pipe(Effect.catchTag("StoreFailure", Effect.die))
  }))
)
