import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Inspectable, Option, Stream } from "effect"
import { ErrorMapping } from "@payrail/http"
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * Reads `source` to its end, holding at most `maxBytes`: past that it stops keeping what arrives and fails with the
 * body-too-large error (413), after `onCut`. What else arrives is read and discarded. A request whose client goes away
 * fails; an interrupted read releases its listeners.
 */
const readBounded = (
  request: HttpServerRequest.HttpServerRequest,
  source: IncomingMessage,
  maxBytes: number | undefined,
  onCut: () => void
): Effect.Effect<Buffer, HttpServerError.RequestError> =>
  Effect.async<Buffer, HttpServerError.RequestError>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const detach = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    const fail = (description: string, cause?: unknown) => {
      detach()
      chunks.length = 0
      resume(Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", description, cause })))
    }
    function onData(chunk: Buffer) {
      bytes += chunk.length
      if (maxBytes !== undefined && bytes > maxBytes) {
        onCut()
        fail(ErrorMapping.bodyTooLargeDescription)
        // Destroying the request would reset the connection before the 413 is written: discard the rest instead.
        source.resume()
        return
      }
      chunks.push(chunk)
    }
    function onEnd() {
      detach()
      resume(Effect.succeed(Buffer.concat(chunks, bytes)))
    }
    function onError(cause: Error) {
      fail("the request body could not be read", cause)
    }
    function onClose() {
      if (!source.complete) fail("the client closed the connection before the body ended")
    }
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onError)
    source.once("close", onClose)
    return Effect.sync(detach)
  })

const sizeLimit = Effect.map(HttpIncomingMessage.MaxBodySize, (size) => Option.getOrUndefined(Option.map(size, Number)))

/**
 * A request whose body is read once, in full, under the size limit in effect (`HttpIncomingMessage.MaxBodySize`),
 * chunked or not. Everything but the body is the Node request's own.
 */
class BoundedRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private readBody: Effect.Effect<Buffer, HttpServerError.RequestError> | undefined

  constructor(
    readonly original: HttpServerRequest.HttpServerRequest,
    body?: Effect.Effect<Buffer, HttpServerError.RequestError>,
    readonly cut: { exceeded: boolean } = { exceeded: false }
  ) {
    super()
    this.readBody = body
  }
  /**
   * The body, read once on first use (most requests never read one: building the cached read for each of them
   * ran an effect of its own per request).
   */
  get body(): Effect.Effect<Buffer, HttpServerError.RequestError> {
    if (this.readBody === undefined) {
      this.readBody = Effect.runSync(
        Effect.cached(
          Effect.flatMap(sizeLimit, (maxBytes) =>
            readBounded(this, NodeHttpServerRequest.toIncomingMessage(this.original), maxBytes, () => {
              this.cut.exceeded = true
            })
          )
        )
      )
    }
    return this.readBody
  }
  // NodeHttpServer writes the response through the request it finds in the context, by this name.
  get resolvedResponse(): ServerResponse {
    return NodeHttpServerRequest.toServerResponse(this.original)
  }
  get source() {
    return this.original.source
  }
  get url() {
    return this.original.url
  }
  get originalUrl() {
    return this.original.originalUrl
  }
  get method() {
    return this.original.method
  }
  get cookies() {
    return this.original.cookies
  }
  get headers() {
    return this.original.headers
  }
  get remoteAddress() {
    return this.original.remoteAddress
  }
  get multipart() {
    return this.original.multipart
  }
  get multipartStream() {
    return this.original.multipartStream
  }
  get upgrade() {
    return this.original.upgrade
  }
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.map(this.body, (bytes) => bytes.toString("utf8"))
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: (): unknown => (text === "" ? null : JSON.parse(text)),
        catch: (cause) => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
      })
    )
  }
  get urlParamsBody() {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }
  get arrayBuffer() {
    return Effect.map(this.body, (bytes) => Uint8Array.from(bytes).buffer)
  }
  get stream() {
    return Stream.fromEffect(Effect.map(this.body, (bytes): Uint8Array => bytes))
  }
  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return new BoundedRequest(this.original.modify(options), this.body, this.cut)
  }
  toJSON(): unknown {
    return this.original.toJSON()
  }
}

/**
 * HTTP middleware for the Node server: request bodies are read under the size limit in effect as they stream in, so
 * a chunked body gets the same 413 error body as one declaring its length, and no more than the limit is ever held.
 *
 * Node closes a connection whose request it answered before reading it whole; a client still sending then gets a
 * reset that can discard the answer before it is read. So the 413 keeps the connection alive: Node reads and
 * discards the rest of the body, for at most the request timeout, and the client reads its answer.
 */
export const middleware = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (original) => {
    const bounded = new BoundedRequest(original)
    return app.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, bounded),
      Effect.map((response) =>
        bounded.cut.exceeded ? HttpServerResponse.setHeader(response, "connection", "keep-alive") : response
      )
    )
  })
