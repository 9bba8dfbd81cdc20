import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option } from "effect"
import { Caller, TransactionFeed, Transactions } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of `/transactions`: VIEW reads (card transactions beside money ones), TRANSACT confirms a receipt's delivery. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "transactions">,
  never,
  Transactions.Transactions | TransactionFeed.TransactionFeed | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "transactions", (handlers) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions.Transactions
    const feed = yield* TransactionFeed.TransactionFeed
    return handlers
      .handle("list", ({ urlParams: { cursor, limit, sortOrder, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* feed.list(
            caller.platform,
            { ...filter, sortOrder: sortOrder ?? "desc" },
            yield* pageRequest(limit, cursor)
          )
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => feed.get(caller.platform, path.transactionId))
      )
      .handle("confirm", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          transactions.confirm(
            caller.platform,
            path.transactionId,
            Option.fromNullable(payload.receiptDeliveryConfirmedAt)
          )
        )
      )
  })
)
