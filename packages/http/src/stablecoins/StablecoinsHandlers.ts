import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Stablecoins } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/**
 * Handlers of stablecoin issuance: check the permission (links and registration MANAGE, mints and burns TRANSACT,
 * reads VIEW), call `Stablecoins`. The required `Idempotency-Key` is decoded by the endpoint; the key's claim and
 * replay are the idempotency middleware's.
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "stablecoins">,
  never,
  Stablecoins.Stablecoins | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "stablecoins", (handlers) =>
  Effect.gen(function* () {
    const stablecoins = yield* Stablecoins.Stablecoins
    return handlers
      .handle("linkProviderAccount", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => stablecoins.linkProviderAccount(caller.platform, payload))
      )
      .handle("listProviderAccounts", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* stablecoins.listProviderAccounts(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("getProviderAccount", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          stablecoins.getProviderAccount(caller.platform, path.stablecoinProviderAccountId)
        )
      )
      .handle("register", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => stablecoins.register(caller.platform, payload))
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* stablecoins.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => stablecoins.get(caller.platform, path.stablecoinId))
      )
      .handle("mint", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          stablecoins.mint(caller.platform, path.stablecoinId, payload)
        )
      )
      .handle("burn", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          stablecoins.burn(caller.platform, path.stablecoinId, payload)
        )
      )
      .handle("listOperations", ({ path, urlParams: { cursor, limit } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* stablecoins.listOperations(
            caller.platform,
            path.stablecoinId,
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("getOperation", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          stablecoins.getOperation(caller.platform, path.stablecoinOperationId)
        )
      )
  })
)
