import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Transfers } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of the deprecated `/transfer-out` and `/transfer-in` (TRANSACT). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "transfers">,
  never,
  Transfers.Transfers | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "transfers", (handlers) =>
  Effect.gen(function* () {
    const transfers = yield* Transfers.Transfers
    return handlers
      .handle("transferOut", ({ payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => transfers.transferOut(caller.platform, payload))
      )
      .handle("transferIn", ({ payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => transfers.transferIn(caller.platform, payload))
      )
  })
)
