import { Context, Effect, Layer, Option } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { Quote } from "./Quote.js"
import type { ScaChallenge } from "./ScaChallenge.js"

/**
 * The port through which an execution asks whether a quote needs strong customer authentication first. `challengeFor`
 * runs inside the execution's unit of work: when it answers a challenge, it has stored it (and scheduled its expiry)
 * in that unit, and the quote waits in `PENDING_AUTHORIZATION`; when it answers none, the quote executes at once.
 * Implemented by the SCA context (`QuoteAuthorizations.gateLayer`); {@link none} never asks.
 */
export class QuoteAuthorizationGate extends Context.Tag("@payrail/core/QuoteAuthorizationGate")<
  QuoteAuthorizationGate,
  {
    readonly challengeFor: (
      platform: Platform.Platform,
      quote: Quote
    ) => Effect.Effect<Option.Option<ScaChallenge>, StoreFailure.StoreFailure>
  }
>() {}

/** A gate that never asks for authentication: every execution goes ahead. */
export const none: Layer.Layer<QuoteAuthorizationGate> = Layer.succeed(QuoteAuthorizationGate, {
  challengeFor: () => Effect.succeed(Option.none())
})
