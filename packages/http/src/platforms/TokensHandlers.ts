import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { ApiTokens, ApiTokenView, Caller } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of `/tokens`: MANAGE creates and deletes, VIEW reads; a secret appears only in the creation answer. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "tokens">,
  never,
  ApiTokens.ApiTokens | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "tokens", (handlers) =>
  Effect.gen(function* () {
    const tokens = yield* ApiTokens.ApiTokens
    return handlers
      .handle("create", ({ payload }) =>
        Caller.require("MANAGE").pipe(
          Effect.flatMap((caller) => tokens.create(caller, payload)),
          Effect.map(ApiTokenView.created)
        )
      )
      .handle("list", ({ urlParams: { cursor, limit } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          const page = yield* tokens.list(caller, yield* pageRequest(limit, cursor))
          return { ...page, data: page.data.map(ApiTokenView.of) }
        })
      )
      .handle("get", ({ path }) =>
        Caller.require("VIEW").pipe(
          Effect.flatMap((caller) => tokens.get(caller, path.tokenId)),
          Effect.map(ApiTokenView.of)
        )
      )
      .handle("delete", ({ path }) =>
        Caller.require("MANAGE").pipe(
          Effect.flatMap((caller) => tokens.delete(caller, path.tokenId)),
          Effect.asVoid
        )
      )
  })
)
