import { HttpApiBuilder } from "@effect/platform"
import type { Layer } from "effect"
import { SandboxClock } from "@payrail/core"

/**
 * Runs every API request under `SandboxClock.callerClock`: once authentication has named the caller, the endpoint
 * sees its platform's time (real time plus the offset its sandbox clock was advanced by), while authentication, rate
 * limits, idempotency records and access logs keep real time.
 */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware(SandboxClock.withCallerTime)
