import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, PlatformConfigView, PlatformSettings } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of `/config`: VIEW reads, MANAGE changes; both answer the stored configuration. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "config">,
  never,
  PlatformSettings.PlatformSettings | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "config", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* PlatformSettings.PlatformSettings
    return handlers
      .handle("get", () =>
        Caller.require("VIEW").pipe(
          Effect.flatMap((caller) => settings.get(caller.platform.id)),
          Effect.map(PlatformConfigView.of)
        )
      )
      .handle("update", ({ payload }) =>
        Caller.require("MANAGE").pipe(
          Effect.flatMap((caller) => settings.update(caller.platform.id, payload)),
          Effect.map(PlatformConfigView.of)
        )
      )
  })
)
