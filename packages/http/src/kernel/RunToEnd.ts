import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect, Fiber, type Layer } from "effect"

/**
 * Every request that reaches the API runs to its end, even when its client goes away first (a disconnect, or a
 * client's or a proxy's timeout). Effect's HTTP servers interrupt a request's handler when its client goes: a unit
 * of work would then roll back wherever it was, and `@effect/sql-pg` cancels an interrupted statement through a
 * connection of the same pool, which waits for a free connection (up to 5 s) while its own is held. When many
 * clients leave at once (a load balancer's timeout), every connection of the pool waits on such a cancel and the
 * whole server stops for seconds.
 *
 * Here the API runs in a fiber of its own, which the client's going away does not reach (timeouts inside the
 * request still interrupt what they bound); the request's own fiber waits for it, so a server's drain of in-flight
 * requests waits for it too. A client that left does not see the answer: it retries with its `Idempotency-Key` to
 * learn it.
 */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(Effect.forkDaemon(app), (fiber) =>
    // What the API set for the response (its pre-response handlers: the `Deprecation` header) comes back with its
    // answer, error answers included (`Fiber.join` brings it back with successes only).
    Effect.flatMap(Fiber.await(fiber), (exit) => Effect.zipRight(fiber.inheritAll, exit))
  )
)
