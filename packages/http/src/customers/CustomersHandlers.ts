import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, CustomerEmailSync, Customers, WalletStep } from "@payrail/core"
import { type Authentication, PayrailApi, SignedRetryContract } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/**
 * Handlers of the customers group: check the permission, call the use case, return its result (an update tied to
 * `EMAIL_OTP` credentials answers its signed-retry challenge first).
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "customers">,
  never,
  Customers.Customers | CustomerEmailSync.CustomerEmailSync | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "customers", (handlers) =>
  Effect.gen(function* () {
    const customers = yield* Customers.Customers
    const emailSync = yield* CustomerEmailSync.CustomerEmailSync
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
      .handle("delete", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => customers.delete(caller.platform, path.customerId))
      )
      .handle("update", ({ headers, path, payload, request }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          emailSync.update(
            caller.platform,
            path.customerId,
            payload,
            SignedRetryContract.toWalletHeaders(headers, request.headers)
          )
        ).pipe(
          Effect.map(
            WalletStep.match({
              Challenge: ({ request: challenge }) => SignedRetryContract.untypedChallenge(challenge),
              Done: ({ value }) => value
            })
          )
        )
      )
  })
)
