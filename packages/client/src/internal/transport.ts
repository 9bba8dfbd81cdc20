import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Duration, Effect, FiberRef, ParseResult, Schedule } from "effect"
import { FieldErrorReport, IdempotencyHeader } from "@payrail/api"
import { authorizationOf, type PayrailAuth } from "../PayrailAuth.js"
import { PayrailError, PayrailNetworkError, type PayrailClientError } from "../PayrailError.js"

/** What both faces of the client are built from. */
export interface TransportOptions {
  readonly baseUrl: string
  readonly auth: PayrailAuth
  readonly fetch?: typeof globalThis.fetch | undefined
  readonly maxRetries?: number | undefined
  readonly retryDelay?: Duration.DurationInput | undefined
}

/** One call of either face: its `Idempotency-Key`, and whether a request of it has been sent yet. */
interface Call {
  readonly idempotencyKey: string
  sent: boolean
}

/**
 * The call running in this fiber. A call sets it once, before its first attempt, so the retries of that call (which
 * run the request pipeline again) send the same key.
 */
const currentCall = FiberRef.unsafeMake<Call | undefined>(undefined)

/**
 * Runs one call with its key (the caller's, or a fresh UUID), failing with the client's errors: a request the
 * contract refuses before it is sent is a 400 `INVALID_INPUT` naming its fields, as the server would answer it.
 */
export const asCall =
  (idempotencyKey: string | undefined) =>
  <A, E, R>(call: Effect.Effect<A, E, R>): Effect.Effect<A, PayrailClientError, R> =>
    Effect.suspend(() => {
      const state: Call = { idempotencyKey: idempotencyKey ?? crypto.randomUUID(), sent: false }
      return call.pipe(
        Effect.mapError((error) => toClientError(error, state.sent)),
        Effect.locally(currentCall, state)
      )
    })

const withCredentialsAndKey = (authorization: string | undefined) => (request: HttpClientRequest.HttpClientRequest) =>
  Effect.map(FiberRef.get(currentCall), (call) => {
    if (call !== undefined) call.sent = true
    const key = call?.idempotencyKey
    let prepared = request
    if (authorization !== undefined && prepared.headers["authorization"] === undefined)
      prepared = HttpClientRequest.setHeader(prepared, "authorization", authorization)
    if (
      key !== undefined &&
      IdempotencyHeader.mutatingMethods.has(prepared.method) &&
      prepared.headers[IdempotencyHeader.headerName] === undefined
    )
      prepared = HttpClientRequest.setHeader(prepared, IdempotencyHeader.headerName, key)
    return prepared
  })

// An answer outside 2xx becomes a PayrailError carrying the body as the server sent it.
const failUnlessSuccessful = (response: HttpClientResponse.HttpClientResponse) =>
  response.status >= 200 && response.status < 300
    ? Effect.succeed(response)
    : response.json.pipe(
        Effect.orElseSucceed(() => undefined),
        Effect.flatMap((body) => Effect.fail(PayrailError.fromBody(response.status, body)))
      )

/** The longest `Retry-After` the client waits for on its own; a longer one is the caller's to decide. */
const longestInProgressWait = Duration.seconds(30)

/**
 * How long to wait before sending the call again, when the answer is a 409 with `Retry-After`: the server's
 * `idempotency_key_in_progress` (a request with this call's key is still running). Other 409s carry no such header.
 */
const inProgressWait = (response: HttpClientResponse.HttpClientResponse): Duration.Duration | undefined => {
  if (response.status !== 409) return undefined
  const seconds = Number(response.headers["retry-after"])
  return Number.isInteger(seconds) && seconds >= 0
    ? Duration.min(Duration.seconds(seconds), longestInProgressWait)
    : undefined
}

/**
 * Sends the call again, with the same key, while the server says a request with that key is in progress, waiting
 * what it asks each time, at most `times` more times; then the first answer that is not such a 409, which is the
 * outcome of the request that held the key (its stored response, replayed).
 */
const waitWhileInProgress =
  (times: number) =>
  <E, R>(
    send: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> => {
    const attempt = (left: number): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> =>
      Effect.flatMap(send, (response) => {
        const wait = left > 0 ? inProgressWait(response) : undefined
        return wait === undefined ? Effect.succeed(response) : Effect.zipRight(Effect.sleep(wait), attempt(left - 1))
      })
    return attempt(times)
  }

/**
 * The HTTP client every call goes through: credentials, the call's `Idempotency-Key` on mutations, retries of network
 * failures and of 408, 429 and 5xx answers (exponential backoff, `maxRetries` times, 2 by default) and of a 409 saying
 * a request with the same key is still in progress (after its `Retry-After`, as many times), then any answer outside
 * 2xx as a `PayrailError`.
 */
export const make = (options: TransportOptions): Effect.Effect<HttpClient.HttpClient.With<PayrailClientError>> =>
  Effect.map(HttpClient.HttpClient.pipe(Effect.provide(FetchHttpClient.layer)), (base) => {
    const fetch = options.fetch
    const client = base.pipe(
      HttpClient.mapRequestEffect(withCredentialsAndKey(authorizationOf(options.auth))),
      HttpClient.transformResponse(waitWhileInProgress(options.maxRetries ?? 2)),
      HttpClient.retryTransient({
        times: options.maxRetries ?? 2,
        schedule: Schedule.exponential(options.retryDelay ?? Duration.millis(200))
      }),
      HttpClient.transformResponse(Effect.flatMap(failUnlessSuccessful)),
      HttpClient.transformResponse((response) =>
        fetch === undefined ? response : Effect.provideService(response, FetchHttpClient.Fetch, fetch)
      ),
      HttpClient.catchAll((error) => Effect.fail(toClientError(error, true)))
    )
    return client
  })

/** The client's failure for anything a call can fail with; `sent` says whether a request had gone out. */
const toClientError = (error: unknown, sent: boolean): PayrailClientError => {
  if (error instanceof PayrailError || error instanceof PayrailNetworkError) return error
  if (HttpClientError.isHttpClientError(error))
    return new PayrailNetworkError({
      reason:
        error._tag === "RequestError"
          ? `The request did not get an answer (${error.reason})${error.cause instanceof Error ? `: ${error.cause.message}` : ""}`
          : `The answer could not be read (${error.reason})`
    })
  if (ParseResult.isParseError(error) && !sent)
    return new PayrailError({
      status: 400,
      code: "INVALID_INPUT",
      reason: "The request does not match the contract; it was not sent",
      details: {
        errors: FieldErrorReport.fieldErrorsOfIssues(ParseResult.ArrayFormatter.formatErrorSync(error)).map(
          (fieldError) => ({ ...fieldError })
        )
      }
    })
  if (ParseResult.isParseError(error))
    return new PayrailNetworkError({ reason: `The answer does not match the Payrail contract: ${error.message}` })
  return new PayrailNetworkError({ reason: `The call failed: ${String(error)}` })
}
