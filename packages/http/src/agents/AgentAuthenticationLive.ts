import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect, Layer } from "effect"
import { Agents } from "@payrail/core"
import { AgentAuthentication } from "@payrail/api"
import { SourceAddress } from "../platforms/index.js"

/**
 * Bearer security of the agent API backed by core's `Agents.authenticate`: the token of `Authorization: Bearer`
 * names a live agent, whose record and platform become the `CurrentAgent`. A missing, malformed or wrong token and
 * a deleted agent's token are the same 401; failures count against the request's source address (`SourceAddress`),
 * and once its limit refuses, 429 `RATE_LIMITED`. A store failure while checking is a 500, never a 401. The token is
 * never logged.
 */
export const layer = Layer.effect(
  AgentAuthentication.AgentAuthentication,
  Effect.gen(function* () {
    const agents = yield* Agents.Agents
    const sourceOf = SourceAddress.make(yield* SourceAddress.TrustedProxies)
    return {
      AgentAuth: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* agents.authenticate(token, sourceOf(request))
        }).pipe(Effect.catchTag("StoreFailure", Effect.die))
    }
  })
)
