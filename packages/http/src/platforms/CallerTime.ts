import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Duration, Effect, type Layer, Option } from "effect"
import { AgentCaller, Caller, PlatformTime, SandboxClock } from "@payrail/core"

// The clock offset of the caller's platform: the API token's (`CurrentCaller`) or the agent's (`CurrentAgent`).
const callerOffset: Effect.Effect<Duration.Duration> = Effect.flatMap(
  Effect.serviceOption(Caller.CurrentCaller),
  Option.match({
    onSome: (caller) => Effect.succeed(SandboxClock.offsetOf(caller.platform)),
    onNone: () =>
      Effect.map(
        Effect.serviceOption(AgentCaller.CurrentAgent),
        Option.match({ onNone: () => Duration.zero, onSome: (agent) => SandboxClock.offsetOf(agent.platform) })
      )
  })
)

/**
 * Runs every API request under its caller's platform time: once authentication has named the caller (an API token
 * or an agent's access token), the endpoint sees its platform's time (real time plus the offset its sandbox clock
 * was advanced by), while authentication, rate limits, idempotency records and access logs keep real time.
 */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(Effect.clock, (base) => Effect.withClock(app, PlatformTime.contextual(base, callerOffset)))
)
