import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, KycLinks } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of the hosted verification links: check the permission (MANAGE), issue the link. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "kycLinks">,
  never,
  KycLinks.KycLinks | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "kycLinks", (handlers) =>
  Effect.gen(function* () {
    const links = yield* KycLinks.KycLinks
    return handlers.handle("create", ({ path, payload }) =>
      Effect.flatMap(Caller.require("MANAGE"), (caller) => links.create(caller.platform, path.customerId, payload))
    )
  })
)
