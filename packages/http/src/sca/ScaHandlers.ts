import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, FactorResets, ScaFactors, ScaLogins } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/**
 * Handlers of `/sca`: check the permission (VIEW reads, MANAGE everything else), call the use case, return its result.
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "sca">,
  never,
  ScaFactors.ScaFactors | ScaLogins.ScaLogins | FactorResets.FactorResets | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "sca", (handlers) =>
  Effect.gen(function* () {
    const factors = yield* ScaFactors.ScaFactors
    const logins = yield* ScaLogins.ScaLogins
    const resets = yield* FactorResets.FactorResets
    return handlers
      .handle("listFactors", ({ urlParams }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => factors.list(caller.platform, urlParams.customerId))
      )
      .handle("enrollFactor", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          factors.enroll(caller.platform, urlParams.customerId, payload)
        )
      )
      .handle("confirmFactor", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          factors.confirm(caller.platform, urlParams.customerId, payload)
        )
      )
      .handle("deleteFactor", ({ path, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          factors.remove(caller.platform, urlParams.customerId, path.credentialId)
        )
      )
      .handle("startLogin", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          logins.start(caller.platform, urlParams.customerId, payload.factor)
        )
      )
      .handle("completeLogin", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          logins.complete(caller.platform, urlParams.customerId, payload)
        )
      )
      .handle("recordEvent", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          logins.recordEvent(caller.platform, urlParams.customerId, payload.eventType)
        )
      )
      .handle("startReset", ({ payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          resets.start(caller.platform, urlParams.customerId, payload.factor)
        )
      )
      .handle("getReset", ({ path, urlParams }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          resets.get(caller.platform, urlParams.customerId, path.resetId)
        )
      )
      .handle("completeReset", ({ path, payload, urlParams }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          resets.complete(caller.platform, urlParams.customerId, path.resetId, payload)
        )
      )
  })
)
