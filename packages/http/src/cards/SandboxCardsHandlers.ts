import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, CardTransactions, PlatformErrors } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

// A simulator is the sandbox's card network: a production platform's card transactions come from its issuer.
const sandboxCaller = Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
  caller.platform.environment === "SANDBOX" ? Effect.succeed(caller) : Effect.fail(PlatformErrors.SandboxOnly.of())
)

/** Handlers of `POST /sandbox/cards/{cardId}/simulate/...` (TRANSACT, sandbox platforms only). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "sandboxCards">,
  never,
  CardTransactions.CardTransactions | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "sandboxCards", (handlers) =>
  Effect.gen(function* () {
    const cards = yield* CardTransactions.CardTransactions
    return handlers
      .handle("authorization", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) =>
          cards.authorize(platform, path.cardId, "AUTHORIZATION", payload)
        )
      )
      .handle("financial_authorization", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) =>
          cards.authorize(platform, path.cardId, "FINANCIAL_AUTHORIZATION", payload)
        )
      )
      .handle("credit_authorization", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) =>
          cards.authorize(platform, path.cardId, "CREDIT_AUTHORIZATION", payload)
        )
      )
      .handle("financial_credit_authorization", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) =>
          cards.authorize(platform, path.cardId, "FINANCIAL_CREDIT_AUTHORIZATION", payload)
        )
      )
      .handle("credit_authorization_advice", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) =>
          cards.authorize(platform, path.cardId, "CREDIT_AUTHORIZATION_ADVICE", payload)
        )
      )
      .handle("clearing", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) => cards.clear(platform, path.cardId, payload))
      )
      .handle("return", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) => cards.refund(platform, path.cardId, payload))
      )
      .handle("return_reversal", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) => cards.reverseRefund(platform, path.cardId, payload))
      )
      .handle("authorization_advice", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) => cards.advise(platform, path.cardId, payload))
      )
      .handle("balance_inquiry", ({ path, payload }) =>
        Effect.flatMap(sandboxCaller, ({ platform }) => cards.balanceInquiry(platform, path.cardId, payload))
      )
  })
)
