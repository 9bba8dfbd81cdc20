import { type Clock, DateTime, Duration, Effect, Option, Schema } from "effect"
import { PlatformTime, SchemaClass } from "../kernel/index.js"
import { CurrentCaller } from "./Caller.js"
import type { Platform } from "./Platform.js"

/** The longest one advance may move a sandbox clock: 366 days. */
export const maxAdvanceSeconds = 366 * 24 * 60 * 60

/** The farthest a sandbox clock may run ahead of real time: 100 years (so its dates stay four-digit years). */
export const maxOffsetSeconds = 100 * 365 * 24 * 60 * 60

/** The seconds one `POST /sandbox/clock/advance` moves the clock: a whole number from 1 to `maxAdvanceSeconds`. */
export const AdvanceSeconds = Schema.Int.pipe(
  Schema.between(1, maxAdvanceSeconds, {
    description: `a whole number of seconds from 1 to ${maxAdvanceSeconds} (366 days)`
  })
)

/** A sandbox platform's clock as the API shows it: its current time and how far it runs ahead of real time. */
export class SandboxClockView extends SchemaClass.Class<SandboxClockView>("SandboxClock")({
  currentTime: Schema.DateTimeUtc.annotations({
    description: "The platform's time now: what its requests, jobs and webhooks see"
  }),
  offsetSeconds: Schema.NonNegativeInt.annotations({
    description: "How many seconds the clock has been advanced ahead of real time, in total"
  })
}) {}

/** The platform's clock offset. */
export const offsetOf = (platform: Platform): Duration.Duration => Duration.seconds(platform.clockOffsetSeconds)

/** The view of `platform`'s clock when real time is `realNow`. */
export const viewOf = (platform: Platform, realNow: DateTime.Utc): SandboxClockView =>
  new SandboxClockView({
    currentTime: DateTime.addDuration(realNow, offsetOf(platform)),
    offsetSeconds: platform.clockOffsetSeconds
  })

/**
 * A clock ahead of `base` by the clock offset of the platform of the `CurrentCaller` in the asking fiber's context,
 * and equal to it where there is none. A server runs its API under it, so each request's handler sees its caller's
 * platform time while authentication, rate limits and access logs keep real time.
 */
export const callerClock = (base: Clock.Clock): Clock.Clock =>
  PlatformTime.contextual(
    base,
    Effect.map(
      Effect.serviceOption(CurrentCaller),
      Option.match({ onNone: () => Duration.zero, onSome: (caller) => offsetOf(caller.platform) })
    )
  )

/** Runs `effect` under `callerClock` of the current clock. */
export const withCallerTime = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.clock, (base) => Effect.withClock(effect, callerClock(base)))
