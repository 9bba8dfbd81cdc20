import { HttpApiBuilder, type HttpApiGroup } from "@effect/platform"
import { Effect, type Layer, Option } from "effect"
import { Caller, Customers, Page } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

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
          const after = cursor === undefined ? Option.none() : Option.some(yield* Page.decodeCursor(cursor))
          return yield* customers.list(caller.platform, filter, { limit: limit ?? Page.defaultLimit, after })
        })
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => customers.update(caller.platform, path.customerId, payload))
      )
  })
)
