import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, SandboxPayments } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of `POST /sandbox/send` and `POST /sandbox/uma/receive` (TRANSACT). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "sandboxPayments">,
  never,
  SandboxPayments.SandboxPayments | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "sandboxPayments", (handlers) =>
  Effect.gen(function* () {
    const sandbox = yield* SandboxPayments.SandboxPayments
    return handlers
      .handle("send", ({ payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => sandbox.send(caller.platform, payload))
      )
      .handle("receiveUma", ({ payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => sandbox.receiveUma(caller.platform, payload))
      )
  })
)
