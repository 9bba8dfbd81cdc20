import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Verifications } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of the verifications group: check the permission, call the use case, return its result. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "verifications">,
  never,
  Verifications.Verifications | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "verifications", (handlers) =>
  Effect.gen(function* () {
    const verifications = yield* Verifications.Verifications
    return handlers
      .handle("submit", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => verifications.submit(caller.platform, payload.customerId))
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => verifications.get(caller.platform, path.verificationId))
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* verifications.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
  })
)
