import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer } from "effect"
import { BeneficiaryTrust, Caller, QuoteAuthorizations } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"

/** Handlers of the trust and untrust endpoints: MANAGE, then the use case. */
export const trustLayer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "beneficiaryTrust">,
  never,
  BeneficiaryTrust.BeneficiaryTrust | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "beneficiaryTrust", (handlers) =>
  Effect.gen(function* () {
    const trust = yield* BeneficiaryTrust.BeneficiaryTrust
    return handlers
      .handle("startTrust", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => trust.start(caller.platform, path.externalAccountId, true))
      )
      .handle("confirmTrust", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          trust.confirm(caller.platform, path.externalAccountId, true, payload)
        )
      )
      .handle("startUntrust", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          trust.start(caller.platform, path.externalAccountId, false)
        )
      )
      .handle("confirmUntrust", ({ path, payload }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) =>
          trust.confirm(caller.platform, path.externalAccountId, false, payload)
        )
      )
  })
)

/** Handlers of quote authorization: TRANSACT (it moves money), then the use case. */
export const quoteLayer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "quoteAuthorization">,
  never,
  QuoteAuthorizations.QuoteAuthorizations | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "quoteAuthorization", (handlers) =>
  Effect.gen(function* () {
    const authorizations = yield* QuoteAuthorizations.QuoteAuthorizations
    return handlers
      .handle("authorize", ({ path, payload }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) =>
          authorizations.authorize(caller.platform, path.quoteId, payload)
        )
      )
      .handle("resend", ({ path }) =>
        Effect.flatMap(Caller.require("TRANSACT"), (caller) => authorizations.resend(caller.platform, path.quoteId))
      )
  })
)
