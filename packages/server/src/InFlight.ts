import type { HttpApp } from "@effect/platform"
import { Context, type Duration, Effect, Layer, Option, Ref, Schedule } from "effect"

/** Counts requests being handled, so a shutdown can wait for them instead of cutting them off. */
export class InFlight extends Context.Tag("@payrail/server/InFlight")<InFlight, Ref.Ref<number>>() {}

export const layer: Layer.Layer<InFlight> = Layer.effect(InFlight, Ref.make(0))

/** HTTP middleware that keeps `InFlight` up to date. */
export const track =
  (counter: Ref.Ref<number>) =>
  <E, R>(app: HttpApp.HttpApp<E, R>): HttpApp.HttpApp<E, R> =>
    Effect.acquireUseRelease(
      Ref.update(counter, (n) => n + 1),
      () => app,
      () => Ref.update(counter, (n) => n - 1)
    )

/**
 * A layer whose release waits until no request is in flight, or `timeout` passes. Built after the HTTP server,
 * it is released before it: in-flight requests finish before the server closes.
 */
export const drainOnShutdown = (timeout: Duration.DurationInput): Layer.Layer<never, never, InFlight> =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const counter = yield* InFlight
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          const pending = yield* Ref.get(counter)
          if (pending > 0) yield* Effect.logInfo(`shutting down: waiting for ${pending} request(s) in flight`)
          const drained = yield* Ref.get(counter).pipe(
            Effect.repeat({ until: (n) => n === 0, schedule: Schedule.spaced("50 millis") }),
            Effect.timeoutOption(timeout)
          )
          if (Option.isNone(drained)) yield* Effect.logWarning("shutting down with requests still in flight")
        })
      )
    })
  )
