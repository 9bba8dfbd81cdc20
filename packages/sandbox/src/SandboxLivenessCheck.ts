import { Context, Effect, Layer, Option } from "effect"
import { LivenessCheck, ScaErrors } from "@payrail/core"

/** The magic `platformCustomerId` endings of the sandbox liveness check, and the outcome each gives. */
export const magic = {
  failed: "liveness-fail",
  inReview: "liveness-review"
} as const

/** The outcome the sandbox gives the liveness check of a customer with this `platformCustomerId`. */
export const outcomeFor = (platformCustomerId: string): LivenessCheck.LivenessOutcome =>
  platformCustomerId.endsWith(magic.failed)
    ? "FAILED"
    : platformCustomerId.endsWith(magic.inReview)
      ? "IN_REVIEW"
      : "PASSED"

const prefix = "sandbox-liveness"

/**
 * The sandbox liveness check. On sandbox platforms no person is checked: the outcome follows the customer's
 * `platformCustomerId`, in the sandbox's magic-suffix style (`…liveness-fail` is `FAILED`, the reset `REJECTED`;
 * `…liveness-review` stays `IN_REVIEW`, the reset `PENDING_REVIEW`; anything else `PASSED` at once). The outcome is
 * carried in the session id, so the check keeps no state. A production platform is served by `production` when one is
 * given (a real provider), and refused `LivenessNotConfigured` otherwise.
 */
export const make = (
  production: Option.Option<Context.Tag.Service<LivenessCheck.LivenessCheck>> = Option.none()
): Context.Tag.Service<LivenessCheck.LivenessCheck> => ({
  serves: (environment) =>
    environment === "SANDBOX" || Option.exists(production, (provider) => provider.serves(environment)),
  open: (request) =>
    request.environment === "SANDBOX"
      ? Effect.succeed({
          sessionId: `${prefix}:${outcomeFor(request.platformCustomerId)}:${request.resetId}`,
          verificationLink: `https://liveness.sandbox.payrail.invalid/${encodeURIComponent(request.resetId)}`
        })
      : Option.match(production, {
          onNone: () => Effect.fail(ScaErrors.LivenessNotConfigured.of(request.environment)),
          onSome: (provider) => provider.open(request)
        }),
  outcome: (request) => {
    if (request.sessionId.startsWith(`${prefix}:`)) {
      const outcome = request.sessionId.split(":")[1]
      return Effect.succeed(
        outcome === "FAILED" || outcome === "IN_REVIEW" || outcome === "PASSED" ? outcome : ("PENDING" as const)
      )
    }
    return Option.match(production, {
      onNone: () => Effect.succeed("PENDING" as const),
      onSome: (provider) => provider.outcome(request)
    })
  }
})

/** The sandbox liveness check alone: production platforms' resets are refused as not configured. */
export const layer: Layer.Layer<LivenessCheck.LivenessCheck> = Layer.succeed(LivenessCheck.LivenessCheck, make())

/** The sandbox liveness check for sandbox platforms, and `production`, a real provider, for production ones. */
export const layerWith = (
  production: Context.Tag.Service<LivenessCheck.LivenessCheck>
): Layer.Layer<LivenessCheck.LivenessCheck> => Layer.succeed(LivenessCheck.LivenessCheck, make(Option.some(production)))
