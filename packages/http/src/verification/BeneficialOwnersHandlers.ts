import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { BeneficialOwners, Caller } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of the beneficial owners group: check the permission, call the use case, return its result. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "beneficialOwners">,
  never,
  BeneficialOwners.BeneficialOwners | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "beneficialOwners", (handlers) =>
  Effect.gen(function* () {
    const owners = yield* BeneficialOwners.BeneficialOwners
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => owners.create(caller.platform, payload))
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => owners.get(caller.platform, path.beneficialOwnerId))
      )
      .handle("list", ({ urlParams: { cursor, customerId, limit } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* owners.list(caller.platform, customerId, yield* pageRequest(limit, cursor))
        })
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          owners.update(caller.platform, path.beneficialOwnerId, payload)
        )
      )
  })
)
