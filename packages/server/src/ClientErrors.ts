import { Schema } from "effect"
import { InvalidInput } from "@payrail/core"
import { HttpErrors, PayrailApi } from "@payrail/api"
import { maxHeaderSize, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"

const encodeHeadersTooLarge = Schema.encodeSync(PayrailApi.RequestHeadersTooLargeBody)
const encodeInvalidInput = Schema.encodeSync(PayrailApi.InvalidInputBody)

/** A complete HTTP/1.1 response with a JSON body, asking the client to close the connection. */
const rawResponse = (status: number, body: unknown, extraHeaders = ""): string => {
  const json = JSON.stringify(body)
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
    `Connection: close\r\n${extraHeaders}\r\n${json}`
  )
}

// The reasons name the rule, never the input: nothing of what the client sent comes back.
const headersTooLarge = (maxHeaderBytes: number): string =>
  rawResponse(
    431,
    encodeHeadersTooLarge(
      new HttpErrors.RequestHeadersTooLarge({
        code: "REQUEST_HEADERS_TOO_LARGE",
        reason: `The request line and headers exceed ${maxHeaderBytes} bytes`,
        details: { rule: "max_header_size", maxHeaderBytes }
      })
    )
  )

const malformed = rawResponse(
  400,
  encodeInvalidInput(new InvalidInput.InvalidInput({ reason: "The request is not well-formed HTTP/1.1" }))
)

// What Node itself answers a request whose headers or body did not arrive in time; kept as Node writes it.
const requestTimeout = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"

const answerFor = (code: string | undefined, maxHeaderBytes: number): string | undefined => {
  if (code === "HPE_HEADER_OVERFLOW") return headersTooLarge(maxHeaderBytes)
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return requestTimeout
  if (code?.startsWith("HPE_") === true) return malformed
  return undefined
}

// How long a refused connection may keep sending (its rest is read and discarded) before it is destroyed: closing
// with unread input would reset the connection, and a reset can discard the answer before the client reads it.
const lingerMillis = 5_000

/**
 * Answers the requests Node's HTTP parser refuses before any handler runs, in place of Node's empty-bodied answers:
 * request line and headers over Node's header limit (`maxHeaderSize`, 16 KiB by default) get 431
 * `REQUEST_HEADERS_TOO_LARGE` with `details: {rule: "max_header_size", maxHeaderBytes}`; any other parse error
 * (`HPE_*`) gets 400 `INVALID_INPUT`; each with the error body and `Connection: close`, naming no input. A request
 * not received in time keeps Node's 408. As with Node's own answers, the answer replaces a response the app has not
 * started writing; a connection where one has started, that can no longer be written to, or that failed otherwise
 * (a reset), is destroyed. Nothing is logged:
 * these are the client's mistakes, and the answer tells it.
 */
export const answerClientErrors = (server: Server, maxHeaderBytes: number = maxHeaderSize): void => {
  // The responses under way on each connection, and the connections already answered (the parser reports its
  // error again on every later chunk of input).
  const responding = new WeakMap<Duplex, Set<ServerResponse>>()
  const answered = new WeakSet<Duplex>()
  server.on("request", (request, response) => {
    const socket = request.socket
    const responses = responding.get(socket) ?? new Set<ServerResponse>()
    responses.add(response)
    responding.set(socket, responses)
    const settle = () => responses.delete(response)
    response.once("finish", settle)
    response.once("close", settle)
  })
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return
    const answer = answerFor(error.code, maxHeaderBytes)
    const written = [...(responding.get(socket) ?? [])].some((response) => response.headersSent)
    if (answer === undefined || written || socket.destroyed || !socket.writable) return void socket.destroy()
    answered.add(socket)
    socket.end(answer)
    setTimeout(() => socket.destroy(), lingerMillis).unref()
  })
}
