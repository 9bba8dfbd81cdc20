import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, DelegatedKeys, WalletStep } from "@payrail/core"
import { type Authentication, PayrailApi, SignedRetryContract } from "@payrail/api"

const { toWalletHeaders, untypedChallenge } = SignedRetryContract

/**
 * Handlers of `/auth/delegated-keys`: create (MANAGE, a signed retry: the challenge, then the key) and revoke
 * (MANAGE), list and read (VIEW).
 */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "delegatedKeys">,
  never,
  DelegatedKeys.DelegatedKeys | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "delegatedKeys", (handlers) =>
  Effect.gen(function* () {
    const keys = yield* DelegatedKeys.DelegatedKeys
    return handlers
      .handle("create", ({ headers, payload, request }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          keys.create(caller.platform, payload, toWalletHeaders(headers, request.headers))
        ).pipe(
          Effect.map(
            WalletStep.match({
              Challenge: ({ request }) => untypedChallenge(request),
              Done: ({ value }) => value
            })
          )
        )
      )
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) =>
          Effect.map(keys.list(caller.platform, urlParams), (data) => ({ data }))
        )
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => keys.get(caller.platform, path.id))
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => keys.revoke(caller.platform, path.id))
      )
  })
)
