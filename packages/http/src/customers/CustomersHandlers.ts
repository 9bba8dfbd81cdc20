import { HttpApiBuilder, type HttpApiGroup } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { Caller, Customers } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of the customers group: check the permission, call the use case, return its result. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "customers">,
  never,
  Customers.Customers | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "customers", (handlers) =>
  Effect.gen(function* () {
    const customers = yield* Customers.Customers
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => customers.create(caller.platform, payload))
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => customers.get(caller.platform, path.customerId))
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* customers.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          customers.update(caller.platform, path.customerId, payload)
        )
      )
  })
)
