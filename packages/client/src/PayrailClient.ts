import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type { HttpApiEndpoint } from "@effect/platform/HttpApiEndpoint"
import type { HttpApiGroup } from "@effect/platform/HttpApiGroup"
import { Chunk, Context, Effect, Layer, Option, Stream } from "effect"
import type { Simplify } from "effect/Types"
import { PayrailApi } from "@payrail/api"
import type { EndpointsOf, Groups, PartsOf } from "./internal/contract.js"
import { asCall, make as makeTransport, type TransportOptions } from "./internal/transport.js"
import type { PayrailAuth } from "./PayrailAuth.js"
import type { PayrailClientError } from "./PayrailError.js"

/** Per-call options beside the contract's request. */
export interface CallOptions {
  /**
   * The `Idempotency-Key` of a mutation. Without it the client makes one (a UUID) per call; the client's own
   * retries of that call reuse it. Pass your own to make a retry of yours (after a restart, say) safe too.
   */
  readonly idempotencyKey?: string
}

type RequestOf<Endpoint> =
  PartsOf<Endpoint> extends {
    path: infer Path
    urlParams: infer UrlParams
    payload: infer Payload
    headers: infer Headers
  }
    ? HttpApiEndpoint.ClientRequest<Path, UrlParams, Payload, Headers, false>
    : never

/**
 * One operation of the Effect face: the contract's request (`path`, `urlParams`, `payload`, `headers`, with the
 * contract's types) plus `CallOptions`; it succeeds with the contract's decoded answer and fails with a
 * `PayrailError` (an answer outside 2xx) or a `PayrailNetworkError`.
 */
export type Method<Endpoint> =
  RequestOf<Endpoint> extends infer Request
    ? (
        ...request: void extends Request
          ? [request?: CallOptions]
          : [request: Simplify<Omit<Exclude<Request, void>, "withResponse"> & CallOptions>]
      ) => Effect.Effect<PartsOf<Endpoint>["success"], PayrailClientError>
    : never

type GroupClient<G> = { readonly [E in EndpointsOf<G> as HttpApiEndpoint.Name<E>]: Method<E> }

/** The Effect face: one property per group of the contract (`customers`, `quotes`, ...), one method per operation. */
export type Client = { readonly [G in Groups as HttpApiGroup.Name<G>]: GroupClient<G> }

/** Where the client sends requests and how it authenticates. */
export interface Config {
  /** The server's URL, or the URL the API is mounted under (the version path `/2025-10-13` is added). */
  readonly baseUrl: string
  readonly auth: PayrailAuth
  /** The `fetch` to send requests with (the global one by default). */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** How many times a network failure or a 408, 429 or 5xx answer is retried (2 by default). */
  readonly maxRetries?: number | undefined
  /** The first retry's delay in milliseconds, doubling after (200 by default). */
  readonly retryDelayMillis?: number | undefined
}

/** The configured client of the Payrail API, for Effect programs. */
export class PayrailClient extends Context.Tag("@payrail/client/PayrailClient")<PayrailClient, Client>() {}

type AnyMethod = (request?: Record<string, unknown>) => Effect.Effect<unknown, unknown>

// Each call is a span named after its operation (`PayrailClient.customers.create`), so traces show where time goes.
const wrap =
  (method: AnyMethod, span: string) =>
  (request?: Record<string, unknown> & CallOptions): Effect.Effect<unknown, PayrailClientError> => {
    const { idempotencyKey, ...contractRequest } = request ?? {}
    return method(request === undefined ? undefined : contractRequest).pipe(
      asCall(idempotencyKey),
      Effect.withSpan(span)
    )
  }

/** A client made from the contract (`HttpApiClient`) that sends through the shared transport. */
export const make = (config: Config): Effect.Effect<Client> =>
  Effect.gen(function* () {
    const options: TransportOptions = {
      baseUrl: config.baseUrl,
      auth: config.auth,
      fetch: config.fetch,
      maxRetries: config.maxRetries,
      retryDelay: config.retryDelayMillis
    }
    const httpClient = yield* makeTransport(options)
    const typed = yield* HttpApiClient.makeWith(PayrailApi.PayrailApi, { httpClient, baseUrl: config.baseUrl })
    const client: Record<string, Record<string, unknown>> = {}
    for (const [groupName, group] of Object.entries(typed as unknown as Record<string, Record<string, AnyMethod>>)) {
      const methods: Record<string, unknown> = {}
      for (const [name, method] of Object.entries(group))
        methods[name] = wrap(method, `PayrailClient.${groupName}.${name}`)
      client[groupName] = methods
    }
    return client as unknown as Client
  })

/** The `PayrailClient` service, configured. */
export const layer = (config: Config): Layer.Layer<PayrailClient> => Layer.effect(PayrailClient, make(config))

/** A page of a list, as every list operation answers. */
export interface Page<Item> {
  readonly data: ReadonlyArray<Item>
  readonly hasMore: boolean
  readonly nextCursor?: string | undefined
}

/**
 * Every item of a list, page after page, following `nextCursor` while `hasMore`: pass the list operation and its
 * first request (`PayrailClient.stream(client.customers.list, { urlParams: { limit: 100 } })`). Pages are fetched
 * as the stream is pulled; a failure of any page fails the stream.
 */
export const stream = <Request extends { readonly urlParams: object }, Item, E, R>(
  list: (request: Request) => Effect.Effect<Page<Item>, E, R>,
  request: Request
): Stream.Stream<Item, E, R> =>
  Stream.paginateChunkEffect(Option.none<string>(), (cursor) =>
    Effect.map(
      list(Option.isNone(cursor) ? request : { ...request, urlParams: { ...request.urlParams, cursor: cursor.value } }),
      (page): [Chunk.Chunk<Item>, Option.Option<Option.Option<string>>] => [
        Chunk.fromIterable(page.data),
        page.hasMore && page.nextCursor !== undefined ? Option.some(Option.some(page.nextCursor)) : Option.none()
      ]
    )
  )
