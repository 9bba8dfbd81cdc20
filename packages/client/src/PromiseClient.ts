import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Cause, Effect, Exit, Option } from "effect"
import type { Brand } from "effect"
import type { Simplify } from "effect/Types"
import { PayrailApi } from "@payrail/api"
import type { EndpointsOf, Groups, PartsOf } from "./internal/contract.js"
import { asCall, make as makeTransport } from "./internal/transport.js"
import type { PayrailAuth } from "./PayrailAuth.js"
import type { PayrailClientError } from "./PayrailError.js"
import type { Wire } from "./Wire.js"

/** Per-call options, always the last argument. */
export interface RequestOptions {
  /** The `Idempotency-Key` of a mutation; without it the client makes one per call and reuses it on its retries. */
  readonly idempotencyKey?: string
  /** Extra request headers (the signed-retry headers of the wallet operations, for example). */
  readonly headers?: Readonly<Record<string, string>>
  /** Aborts the call; the promise then rejects. */
  readonly signal?: AbortSignal
}

type Params<Path, UrlParams> = ([Path] extends [void] ? unknown : Wire<Path>) &
  ([UrlParams] extends [never] ? unknown : Wire<UrlParams>)

type ParamsSlot<Path, UrlParams, Payload> = [Path, UrlParams] extends [void, never]
  ? []
  : Record<never, never> extends Params<Path, UrlParams>
    ? [Payload] extends [never]
      ? [params?: Simplify<Params<Path, UrlParams>>]
      : [params: Simplify<Params<Path, UrlParams>>]
    : [params: Simplify<Params<Path, UrlParams>>]

type BodySlot<Payload> = [Payload] extends [never]
  ? []
  : [Payload] extends [Brand.Brand<HttpApiSchema.MultipartTypeId> | Brand.Brand<HttpApiSchema.MultipartStreamTypeId>]
    ? [body: FormData]
    : [body: Wire<Payload>]

type ArgumentsOf<Endpoint> =
  PartsOf<Endpoint> extends { path: infer Path; urlParams: infer UrlParams; payload: infer Payload }
    ? [...ParamsSlot<Path, UrlParams, Payload>, ...BodySlot<Payload>]
    : never

type ItemOf<Success> = Success extends { readonly data: ReadonlyArray<infer Item>; readonly hasMore: boolean }
  ? Item
  : never

/**
 * One operation of the Promise face. Its arguments, in order: the path and query parameters in one object (when the
 * operation has any), the JSON body (when it has one), then `RequestOptions`. It resolves with the answer's JSON
 * (`undefined` for 204) and rejects with a `PayrailError` or a `PayrailNetworkError`. A list operation also has
 * `all(params)`, an async iterator over every item of every page.
 */
export type PromiseMethod<Endpoint> = ((
  ...args: [...ArgumentsOf<Endpoint>, options?: RequestOptions]
) => Promise<Wire<PartsOf<Endpoint>["success"]>>) &
  ([ItemOf<Wire<PartsOf<Endpoint>["success"]>>] extends [never]
    ? unknown
    : {
        readonly all: (
          ...args: [...ArgumentsOf<Endpoint>, options?: RequestOptions]
        ) => AsyncIterableIterator<ItemOf<Wire<PartsOf<Endpoint>["success"]>>>
      })

type PromiseGroup<G> = { readonly [E in EndpointsOf<G> as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: PromiseMethod<E> }

/** The Promise face: one property per group of the contract (`customers`, `quotes`, ...), one method per operation. */
export type PayrailPromiseClient = {
  readonly [G in Groups as HttpApiGroup.HttpApiGroup.Name<G>]: PromiseGroup<G>
}

/** Where the client sends requests and who it is. Give `clientId` and `clientSecret`, or `agentToken`, or neither. */
export interface PayrailClientOptions {
  /** The server's URL, or the URL the API is mounted under (the version path `/2025-10-13` is added). */
  readonly baseUrl: string
  /** An API token's client id (HTTP Basic), with `clientSecret`. */
  readonly clientId?: string | undefined
  readonly clientSecret?: string | undefined
  /** An agent's access token (`gat_…`), sent as a bearer token, for the agent endpoints. */
  readonly agentToken?: string | undefined
  /** The `fetch` to send requests with (the global one by default). */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** How many times a network failure or a 408, 429 or 5xx answer is retried (2 by default). */
  readonly maxRetries?: number | undefined
  /** The first retry's delay in milliseconds, doubling after (200 by default). */
  readonly retryDelayMillis?: number | undefined
}

const authOf = (options: PayrailClientOptions): PayrailAuth => {
  if (options.agentToken !== undefined) {
    if (options.clientId !== undefined || options.clientSecret !== undefined)
      throw new TypeError("Give either clientId and clientSecret or agentToken, not both")
    return { type: "agent", accessToken: options.agentToken }
  }
  if ((options.clientId === undefined) !== (options.clientSecret === undefined))
    throw new TypeError("clientId and clientSecret go together")
  return options.clientId !== undefined && options.clientSecret !== undefined
    ? { type: "basic", clientId: options.clientId, clientSecret: options.clientSecret }
    : { type: "none" }
}

type Json = Record<string, unknown>

/** The request of one call: path parameters in the path, the other parameters in the query. */
const requestOf = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  baseUrl: string,
  params: Json,
  body: unknown,
  options: RequestOptions | undefined
): HttpClientRequest.HttpClientRequest => {
  const query: Json = { ...params }
  const path = endpoint.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name]
    delete query[name]
    if (value === undefined) throw new TypeError(`${endpoint.name}: the path parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
  let request = HttpClientRequest.make(endpoint.method)(`${baseUrl.replace(/\/+$/, "")}${path}`)
  // An array parameter repeats its name (`?currency=USD&currency=EUR`); `undefined` leaves the parameter out.
  for (const [name, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      request = HttpClientRequest.appendUrlParam(request, name, String(item))
  if (options?.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
  if (body instanceof FormData) return HttpClientRequest.bodyFormData(request, body)
  return body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)
}

const answerOf = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

// Rejects with the error itself (a PayrailError, a PayrailNetworkError, a TypeError for a missing path parameter),
// never with Effect's wrapper around it.
const run = async <A>(effect: Effect.Effect<A, PayrailClientError>, signal: AbortSignal | undefined): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect, signal === undefined ? undefined : { signal })
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

const methodOf = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  baseUrl: string,
  client: HttpClient.HttpClient.With<PayrailClientError>
) => {
  const hasParams = Option.isSome(endpoint.pathSchema) || Option.isSome(endpoint.urlParamsSchema)
  const hasBody = Option.isSome(endpoint.payloadSchema)
  const split = (args: ReadonlyArray<unknown>) => {
    let at = 0
    const params = (hasParams ? args[at++] : undefined) ?? {}
    const body = hasBody ? args[at++] : undefined
    return { params: params as Json, body, options: args[at] as RequestOptions | undefined }
  }
  const call = (params: Json, body: unknown, options: RequestOptions | undefined): Promise<unknown> =>
    run(
      Effect.suspend(() => client.execute(requestOf(endpoint, baseUrl, params, body, options))).pipe(
        Effect.flatMap((response) => response.text),
        Effect.map(answerOf),
        asCall(options?.idempotencyKey)
      ),
      options?.signal
    )
  const method = (...args: ReadonlyArray<unknown>) => {
    const { params, body, options } = split(args)
    return call(params, body, options)
  }
  if (endpoint.method !== "GET" || Option.isNone(endpoint.urlParamsSchema)) return method
  return Object.assign(method, {
    all: async function* (...args: ReadonlyArray<unknown>) {
      const { params, body, options } = split(args)
      let cursor: string | undefined = undefined
      do {
        const page = (await call(cursor === undefined ? params : { ...params, cursor }, body, options)) as {
          data?: ReadonlyArray<unknown>
          hasMore?: boolean
          nextCursor?: string
        }
        if (!Array.isArray(page?.data)) throw new TypeError(`${endpoint.name} does not answer a list`)
        yield* page.data
        cursor = page.hasMore === true ? page.nextCursor : undefined
      } while (cursor !== undefined)
    }
  })
}

/**
 * A Payrail client for any JavaScript runtime with `fetch` (Node 20, browsers, workers), no Effect needed:
 * `await payrail.customers.create({ customerType: "INDIVIDUAL", fullName: "Ada" })`. Methods take and answer JSON as
 * the wire has it, made from the contract (`PayrailApi`), so every operation of the server is here with its types.
 * Mutations carry an `Idempotency-Key` (one per call, reused on the client's retries).
 */
export const createPayrailClient = (options: PayrailClientOptions): PayrailPromiseClient => {
  const transport = Effect.runSync(
    makeTransport({
      baseUrl: options.baseUrl,
      auth: authOf(options),
      fetch: options.fetch,
      maxRetries: options.maxRetries,
      retryDelay: options.retryDelayMillis
    })
  )
  const client: Record<string, Record<string, unknown>> = {}
  const groups = PayrailApi.PayrailApi.groups as unknown as Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>
  for (const group of Object.values(groups)) {
    const methods: Record<string, unknown> = {}
    for (const endpoint of Object.values(
      group.endpoints
    ) as ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>)
      methods[endpoint.name] = methodOf(endpoint, options.baseUrl, transport)
    client[group.identifier] = methods
  }
  return client as unknown as PayrailPromiseClient
}
