import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Context, Effect, Layer } from "effect"
import { createServer, type Server } from "node:http"
import { answerClientErrors } from "./ClientErrors.js"

/** How long a client may take over each part of a request, in seconds. */
export interface Timeouts {
  /** From the connection's first byte (or the end of the previous request) to the end of the headers. */
  readonly headersTimeoutSeconds: number
  /** From the first byte to the end of the body. */
  readonly requestTimeoutSeconds: number
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutSeconds: number
}

/**
 * The `node:http` server the API listens on, and its shutdown: `stopAccepting` closes the listening socket and the
 * idle keep-alive connections and makes every later response carry `Connection: close`; `closeAll` destroys
 * every connection still open, whatever its clients are doing.
 */
export interface HttpListener {
  readonly server: Server
  readonly isClosing: () => boolean
  readonly stopAccepting: Effect.Effect<void>
  readonly closeAll: Effect.Effect<void>
}

export class Listener extends Context.Tag("@payrail/server/HttpListener")<Listener, HttpListener>() {}

// Node checks the header and request deadlines on this period; its default (30 s) would let a deadline overrun by
// that much.
const checkingIntervalMillis = 500

/**
 * A listener whose slow-client deadlines are `timeouts`: a client that has not sent its headers in time, or its
 * whole request, is answered 408 and disconnected, so no connection is held open by a client that stopped sending.
 * Requests Node's parser refuses (headers over its limit, malformed HTTP) get the error body (`answerClientErrors`).
 */
export const layer = (timeouts: Timeouts): Layer.Layer<Listener> =>
  Layer.sync(Listener, () => {
    const server = createServer({
      headersTimeout: timeouts.headersTimeoutSeconds * 1000,
      requestTimeout: timeouts.requestTimeoutSeconds * 1000,
      keepAliveTimeout: timeouts.keepAliveTimeoutSeconds * 1000,
      connectionsCheckingInterval: checkingIntervalMillis
    })
    answerClientErrors(server)
    let closing = false
    return {
      server,
      isClosing: () => closing,
      stopAccepting: Effect.sync(() => {
        closing = true
        // close() stops accepting; its callback (all connections gone) is not awaited, closeAll bounds that.
        if (server.listening) server.close()
        server.closeIdleConnections()
      }),
      closeAll: Effect.sync(() => server.closeAllConnections())
    }
  })

/** HTTP middleware: once the listener is closing, every response asks its client to close the connection. */
export const closeWhenStopping =
  (listener: HttpListener) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
    Effect.map(app, (response) =>
      listener.isClosing() ? HttpServerResponse.setHeader(response, "connection", "close") : response
    )
