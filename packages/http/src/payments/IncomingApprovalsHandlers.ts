import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option } from "effect"
import { Caller, IncomingApprovals, TransactionCancels } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of held incoming payments' rejection and of bank transfer cancellation: both TRANSACT. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "incomingApprovals">,
  never,
  IncomingApprovals.IncomingApprovals | TransactionCancels.TransactionCancels | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "incomingApprovals", (handlers) =>
  Effect.gen(function* () {
    const incoming = yield* IncomingApprovals.IncomingApprovals
    const cancels = yield* TransactionCancels.TransactionCancels
    return handlers
      .handle("reject", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          incoming.reject(caller.platform, path.transactionId, Option.fromNullable(payload.reason))
        )
      )
      .handle("cancel", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          cancels.cancel(caller.platform, path.transactionId, Option.fromNullable(payload.reason))
        )
      )
  })
)
