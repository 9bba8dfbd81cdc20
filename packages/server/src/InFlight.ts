import type * as HttpApp from "@effect/platform/HttpApp"
import { Context, type Duration, Effect, Layer, Option, Ref, Schedule } from "effect"
import { Listener } from "./HttpListener.js"

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
 * A layer whose release is the graceful shutdown, bounded by `timeout` whatever clients do: it stops accepting
 * connections and closes the idle ones, lets in-flight requests finish (their responses ask the client to close the
 * connection), and when none is left or `timeout` has passed, destroys every connection still open. Built after
 * the HTTP server, it is released before it.
 */
export const drainOnShutdown = (timeout: Duration.DurationInput): Layer.Layer<never, never, InFlight | Listener> =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const counter = yield* InFlight
      const listener = yield* Listener
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          yield* listener.stopAccepting
          const pending = yield* Ref.get(counter)
          if (pending > 0) yield* Effect.logInfo(`shutting down: waiting for ${pending} request(s) in flight`)
          // Finalizers run uninterruptibly: without `interruptible`, the timeout could not stop the wait.
          const drained = yield* Ref.get(counter).pipe(
            Effect.repeat({ until: (n) => n === 0, schedule: Schedule.spaced("50 millis") }),
            Effect.interruptible,
            Effect.timeoutOption(timeout)
          )
          if (Option.isNone(drained)) yield* Effect.logWarning("shutting down with requests still in flight")
          // Keep-alive connections between requests, and requests whose clients stopped sending.
          yield* listener.closeAll
        })
      )
    })
  )
