import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, Quotes, WalletExecutions, WalletStep } from "@payrail/core"
import { type Authentication, PayrailApi, SignedRetryContract } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of `/quotes`: VIEW reads, TRANSACT creates and executes (an embedded wallet's with its stamp). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "quotes">,
  never,
  Quotes.Quotes | WalletExecutions.WalletExecutions | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "quotes", (handlers) =>
  Effect.gen(function* () {
    const quotes = yield* Quotes.Quotes
    const executions = yield* WalletExecutions.WalletExecutions
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => quotes.create(caller.platform, payload))
      )
      .handle("list", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* quotes.list(caller.platform, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => quotes.get(caller.platform, path.quoteId))
      )
      .handle("execute", ({ headers, path, request }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          executions.execute(
            caller.platform,
            path.quoteId,
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
