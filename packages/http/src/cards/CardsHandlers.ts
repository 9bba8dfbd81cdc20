import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Card, CardRequestRules, Cards } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of card management: check the permission, call `Cards`, answer the card's API form (`Card.view`). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "cards">,
  never,
  Cards.Cards | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "cards", (handlers) =>
  Effect.gen(function* () {
    const cards = yield* Cards.Cards
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          Effect.map(cards.create(caller.platform, payload), Card.view)
        )
      )
      .handle("list", ({ urlParams: { cursor, limit, ...query } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          const filter = yield* CardRequestRules.listFilter(query)
          const page = yield* cards.list(caller.platform, filter, yield* pageRequest(limit, cursor))
          return { ...page, data: page.data.map(Card.view) }
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          Effect.map(cards.get(caller.platform, path.cardId), Card.view)
        )
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          Effect.map(cards.update(caller.platform, path.cardId, payload), Card.view)
        )
      )
      .handle("reveal", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => cards.reveal(caller.platform, path.cardId))
      )
  })
)
