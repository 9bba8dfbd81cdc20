import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { AgentCaller, Agents, Caller, Errors } from "@payrail/core"
import { type AgentAuthentication, type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"
import { SourceAddress } from "../platforms/index.js"

/** Handlers of the platform's agent management: check the permission, call `Agents`, return its result. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "agents">,
  never,
  Agents.Agents | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "agents", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* Agents.Agents
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => agents.create(caller.platform, payload))
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* agents.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => agents.get(caller.platform, path.agentId))
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => agents.update(caller.platform, path.agentId, payload))
      )
      .handle("updatePolicy", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          agents.updatePolicy(caller.platform, path.agentId, payload)
        )
      )
      .handle("delete", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => agents.delete(caller.platform, path.agentId))
      )
      .handle("issueDeviceCode", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => agents.issueDeviceCode(caller.platform, path.agentId))
      )
      .handle("deviceCodeStatus", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => agents.deviceCodeStatus(caller.platform, path.code))
      )
  })
)

/** Handler of the device-code redeem (no credentials): the source address counts failed attempts. */
export const deviceCodesLayer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "agentDeviceCodes">,
  never,
  Agents.Agents
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "agentDeviceCodes", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* Agents.Agents
    const sourceOf = SourceAddress.make(yield* SourceAddress.TrustedProxies)
    return handlers.handle("redeem", ({ path, request }) => agents.redeem(path.code, sourceOf(request)))
  })
)

/** Handler of `GET /agents/me`: the calling agent as its platform sees it, with policy and usage. */
export const meLayer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "agentMe">,
  never,
  Agents.Agents | AgentAuthentication.AgentAuthentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "agentMe", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* Agents.Agents
    return handlers.handle("get", () =>
      Effect.flatMap(AgentCaller.CurrentAgent, (caller) =>
        // Deleted since its token was checked: the token is dead, as the next request would find.
        agents
          .get(caller.platform, caller.agent.id)
          .pipe(Effect.catchTag("AgentNotFound", () => Effect.fail(Errors.Unauthenticated.of("agent_token"))))
      )
    )
  })
)
