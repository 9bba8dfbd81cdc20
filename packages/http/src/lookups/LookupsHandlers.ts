import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Lookups, WithdrawalFees } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of the lookups: check the permission (VIEW: nothing here changes or moves), then look up. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "lookups">,
  never,
  Lookups.Lookups | WithdrawalFees.WithdrawalFees | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "lookups", (handlers) =>
  Effect.gen(function* () {
    const lookups = yield* Lookups.Lookups
    const fees = yield* WithdrawalFees.WithdrawalFees
    return handlers
      .handle("discoveries", ({ urlParams }) =>
        Effect.zipRight(
          Caller.require("VIEW"),
          Effect.map(lookups.discoveries(urlParams), (data) => ({ data }))
        )
      )
      .handle("umaProviders", ({ urlParams: { cursor, limit, sortOrder, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          const page = yield* pageRequest(limit, cursor)
          return yield* lookups.umaProviders(caller.platform, { ...filter, sortOrder: sortOrder ?? "desc" }, page)
        })
      )
      .handle("vasps", ({ urlParams: { cursor, limit, search } }) =>
        Effect.gen(function* () {
          yield* Caller.require("VIEW")
          return yield* lookups.vasps(search, yield* pageRequest(limit, cursor))
        })
      )
      .handle("estimateWithdrawalFee", ({ payload }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => fees.estimate(caller.platform, payload))
      )
      .handle("endUserTerms", () => Effect.zipRight(Caller.require("VIEW"), lookups.endUserTerms))
  })
)
