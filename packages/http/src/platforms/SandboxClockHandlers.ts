import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, SandboxClocks } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of `/sandbox/clock`: VIEW reads the platform's clock, MANAGE moves it forward. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "sandboxClock">,
  never,
  SandboxClocks.SandboxClocks | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "sandboxClock", (handlers) =>
  Effect.gen(function* () {
    const clocks = yield* SandboxClocks.SandboxClocks
    return handlers
      .handle("get", () => Effect.flatMap(Caller.require("VIEW"), (caller) => clocks.current(caller.platform)))
      .handle("advance", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => clocks.advance(caller.platform, payload.seconds))
      )
  })
)
