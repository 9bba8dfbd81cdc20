import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { Caller, UmaLookup, UmaLookups } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of `/receiver/...` (VIEW): a lookup of the receiver, stored for the quote that names it. */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "receiver">,
  never,
  UmaLookups.UmaLookups | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "receiver", (handlers) =>
  Effect.gen(function* () {
    const lookups = yield* UmaLookups.UmaLookups
    return handlers
      .handle("lookupUma", ({ path, urlParams }) =>
        Caller.require("VIEW").pipe(
          Effect.flatMap((caller) => lookups.lookupAddress(caller.platform, path.receiverUmaAddress, urlParams)),
          Effect.map(UmaLookup.toResponse)
        )
      )
      .handle("lookupExternalAccount", ({ path, urlParams }) =>
        Caller.require("VIEW").pipe(
          Effect.flatMap((caller) => lookups.lookupExternalAccount(caller.platform, path.accountId, urlParams)),
          Effect.map(UmaLookup.toResponse)
        )
      )
  })
)
