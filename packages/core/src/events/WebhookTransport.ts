import { Context, Duration, Effect, type Either, Layer, type Queue, Schema, type Scope } from "effect"
import type { Platform } from "../platforms/index.js"

/** One webhook request: the exact body bytes (as text) and headers to POST to `url`. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /**
   * Whose endpoint this is. A `PRODUCTION` platform's URL must be https and must not resolve to a loopback,
   * private, link-local, shared (CGNAT), unique-local, multicast or metadata address; a `SANDBOX` one may target
   * any address (local development).
   */
  readonly environment: Platform.Environment
}

/** What the receiver answered. */
export interface WebhookResponse {
  readonly status: number
  /** From the start of the request to the end of the (possibly cut) response body. */
  readonly latencyMillis: number
  /** The response body as text, cut at `maxResponseBytes`. */
  readonly body: string
}

/** The most response body a transport reads; the rest is dropped. */
export const maxResponseBytes = 64 * 1024

/** How long a transport waits for the whole exchange, from connecting to the end of the body. */
export const timeout: Duration.Duration = Duration.seconds(10)

/** Why no answer was had: the kinds of failure a delivery log shows. */
export const FailureKind = Schema.Literal(
  "invalid_url",
  "https_required",
  "address_refused",
  "dns_failed",
  "timeout",
  "connection_failed",
  "not_configured"
)
export type FailureKind = typeof FailureKind.Type

/** The request got no HTTP answer: refused before connecting, or the connection failed or timed out. */
export class WebhookSendFailed extends Schema.TaggedError<WebhookSendFailed>()("WebhookSendFailed", {
  kind: FailureKind,
  message: Schema.String
}) {}

/** The answer to the request at `index` of a `sendAll`: the receiver's reply, or why none came. */
export interface Answer {
  readonly index: number
  readonly result: Either.Either<WebhookResponse, WebhookSendFailed>
}

/**
 * Sends webhook requests. `send` POSTs once: it never follows a redirect (a 3xx is an answer like any other),
 * reads at most `maxResponseBytes` of the body and gives up after `timeout`. Safe to call concurrently.
 *
 * `sendAll` sends every request of a batch at once, each as `send` would, and offers each answer to `answers` with
 * the request's index as it comes (every request gets exactly one); it returns once all have started. Closing the
 * scope abandons the requests not yet answered (their answers never come).
 */
export class WebhookTransport extends Context.Tag("@payrail/core/WebhookTransport")<
  WebhookTransport,
  {
    readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse, WebhookSendFailed>
    readonly sendAll: (
      requests: ReadonlyArray<WebhookRequest>,
      answers: Queue.Enqueue<Answer>
    ) => Effect.Effect<void, never, Scope.Scope>
  }
>() {}

/**
 * A transport from its `send` alone: its `sendAll` runs each request in a fiber of its own (in the scope). A
 * transport that can start requests without a fiber each (the reference server's) implements `sendAll` itself.
 */
export const fromSend = (
  send: (request: WebhookRequest) => Effect.Effect<WebhookResponse, WebhookSendFailed>
): WebhookTransport["Type"] => ({
  send,
  sendAll: (requests, answers) =>
    Effect.asVoid(
      Effect.forkScoped(
        Effect.forEach(
          requests,
          (request, index) =>
            Effect.flatMap(Effect.either(send(request)), (result) => answers.offer({ index, result })),
          { concurrency: "unbounded", discard: true }
        )
      )
    )
})

/**
 * A transport for a process that sends no webhooks (an embedder that delivers elsewhere, a test of something
 * else): every send fails with `not_configured`, so deliveries are logged as failed and retried, never lost.
 */
export const notConfigured: Layer.Layer<WebhookTransport> = Layer.succeed(
  WebhookTransport,
  fromSend(() =>
    Effect.fail(
      new WebhookSendFailed({ kind: "not_configured", message: "No webhook transport is configured in this process" })
    )
  )
)
