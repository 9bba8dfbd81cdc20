import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Clock, Context, Effect, Exit, FiberRef, LogLevel } from "effect"

// An agent device code in a path is a credential (redeeming it yields an access token): logged as `{code}`. So is
// the secret of a hosted verification page (`/verify/<secret>`, whoever holds it submits the customer's packet):
// logged as `{secret}`. And the token of a card reveal page (`/cards/reveal/<token>`, it opens the card's full
// number and CVC): logged as `{token}`.
const deviceCodeSegment = /(\/agents\/device-codes\/)[^/]*/g
const verificationPageSegment = /(\/verify\/)[^/]*/g
const cardRevealSegment = /(\/cards\/reveal\/)[^/]*/g

/**
 * `GET /2025-10-13/customers 200 3.1ms`: the access line of one request, without its query string and with any
 * agent device code in the path replaced by `{code}`, any hosted verification page's secret by `{secret}` and any
 * card reveal page's token by `{token}`.
 */
export const line = (method: string, url: string, status: number, durationMillis: number): string => {
  const query = url.indexOf("?")
  const path = (query === -1 ? url : url.slice(0, query))
    .replace(deviceCodeSegment, "$1{code}")
    .replace(verificationPageSegment, "$1{secret}")
    .replace(cardRevealSegment, "$1{token}")
  return `${method} ${path} ${status} ${durationMillis.toFixed(1)}ms`
}

/**
 * HTTP middleware that logs one line per request at DEBUG level when the request ends: method, path (never the
 * query string, headers or bodies), status and duration in milliseconds. When DEBUG is below the minimum log level
 * it adds nothing to the request, not even a clock read.
 */
export const middleware = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.withFiberRuntime((fiber) => {
    if (LogLevel.lessThan(LogLevel.Debug, fiber.getFiberRef(FiberRef.currentMinimumLogLevel))) return app
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    return Effect.flatMap(Clock.currentTimeNanos, (startedAt) =>
      Effect.onExit(app, (exit) =>
        Effect.flatMap(Clock.currentTimeNanos, (endedAt) => {
          const status = Exit.isSuccess(exit)
            ? exit.value.status
            : HttpServerError.causeResponseStripped(exit.cause)[0].status
          return Effect.logDebug(line(request.method, request.url, status, Number(endedAt - startedAt) / 1e6))
        })
      )
    )
  })
