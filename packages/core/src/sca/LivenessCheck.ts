import { Context, type DateTime, type Effect, Schema } from "effect"
import type { Platform } from "../platforms/index.js"
import type { LivenessNotConfigured } from "./ScaErrors.js"

/** What a liveness check is opened for: the factor reset of one customer, until its window closes. */
export interface LivenessRequest {
  readonly platformId: Platform.PlatformId
  readonly environment: Platform.Environment
  readonly customerId: string
  readonly platformCustomerId: string
  readonly resetId: string
  readonly expiresAt: DateTime.Utc
}

/**
 * An opened liveness check: the provider's handle, and what the end user completes it with (the reference's
 * `verificationLink`, a hosted page, or `livenessAccessToken` for the provider's embedded SDK), each when the provider
 * gives one.
 */
export interface LivenessSession {
  readonly sessionId: string
  readonly verificationLink?: string
  readonly livenessAccessToken?: string
}

/**
 * How a liveness check stands: not submitted yet (`PENDING`, also while the provider cannot be reached), submitted and
 * under review (`IN_REVIEW`), `PASSED` or `FAILED` (both final).
 */
export const LivenessOutcome = Schema.Literal("PENDING", "IN_REVIEW", "PASSED", "FAILED")
export type LivenessOutcome = typeof LivenessOutcome.Type

/**
 * The provider port of the liveness checks that gate factor resets (`FactorResets`). `serves` says whether a provider
 * checks customers of platforms of an environment (asked before a reset counts against the customer's starts);
 * `open` starts one for a reset
 * (`LivenessNotConfigured` when no provider serves the platform's environment: the reset is refused, nothing is
 * stored); `outcome` says how it stands, and is asked again whenever the reset is read or completed, so a provider
 * needs no callback into Payrail. Both are safe to call concurrently; `outcome` is idempotent. `@payrail/sandbox`
 * implements it for sandbox platforms by magic values (`SandboxLivenessCheck`); a production platform needs a real
 * provider. Without any `LivenessCheck` in the context, every reset is refused as not configured.
 */
export class LivenessCheck extends Context.Tag("@payrail/core/LivenessCheck")<
  LivenessCheck,
  {
    readonly serves: (environment: Platform.Environment) => boolean
    readonly open: (request: LivenessRequest) => Effect.Effect<LivenessSession, LivenessNotConfigured>
    readonly outcome: (request: {
      readonly platformId: Platform.PlatformId
      readonly environment: Platform.Environment
      readonly sessionId: string
    }) => Effect.Effect<LivenessOutcome>
  }
>() {}
