import { Duration, Effect, Either, Layer, type Queue, type Scope } from "effect"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { performance } from "node:perf_hooks"
import ipaddr from "ipaddr.js"
import { Client, type Dispatcher, Pool } from "undici"
import { WebhookTransport } from "@payrail/core"
import { refusal } from "./AddressPolicy.js"

type Failure = WebhookTransport.WebhookSendFailed
type FailureKind = WebhookTransport.FailureKind

type Result = Either.Either<WebhookTransport.WebhookResponse, Failure>

// A failed exchange; as an effect (an `Either` is one) it fails with the same error.
const failure = (kind: FailureKind, message: string): Either.Either<never, Failure> =>
  Either.left(new WebhookTransport.WebhookSendFailed({ kind, message }))

/** Resolves a host name to every address it has. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses)
    )
  )

/** How the transport behaves; every field has a default. */
export interface Options {
  /** Name resolution (default: the system resolver, as `getaddrinfo` answers). */
  readonly resolve?: Resolve
  readonly timeout?: Duration.Duration
  readonly maxResponseBytes?: number
}

const literalAddress = (hostname: string): LookupAddress | undefined => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  if (!ipaddr.isValid(bare)) return undefined
  return { address: bare, family: ipaddr.parse(bare).kind() === "ipv6" ? 6 : 4 }
}

// How long an idle connection to a receiver is kept for the next webhook. Receivers close idle connections too
// (Node's server after 5 s): a shorter wait, and the server's `Keep-Alive: timeout=` hint, which Node's agent
// honours, make a reused connection that the receiver is closing at that moment rare; it is retried once anyway.
const idleConnectionMillis = 4_000

// A connection's failure before any answer came: the receiver closed a kept-alive connection while idle, not a refusal.
const staleConnectionCodes = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "ECONNABORTED"])
const isStale = (error: Error): boolean => "code" in error && staleConnectionCodes.has(String(error.code))

// The reason an exchange is ended early (timed out, cut at the body limit, abandoned); nobody reads it.
const abandoned = new Error("The webhook exchange was ended")

const ignore = () => {}

// Pools (one per checked address and server name) kept before those with no connection left are dropped.
const maxPools = 256

/**
 * `WebhookTransport` on undici's dispatcher (Node's own HTTP client costs about twice the CPU per request). It
 * parses the URL, resolves the host itself and, for a `PRODUCTION` platform, requires https and refuses (before
 * connecting) when any address the host resolves to is not public unicast (`AddressPolicy`); then it connects to the
 * checked address only. `SANDBOX` platforms may use http and any address. Redirects are never followed; the response
 * body is read up to `maxResponseBytes` and the connection then dropped; the whole exchange is bounded by `timeout`
 * (wall clock).
 *
 * Connections are kept alive and reused (idle for at most 4 s), pooled by the checked address (with the TLS server
 * name): a request connects to the IP address it checked, with the URL's host in `Host` and in TLS's SNI and
 * certificate check, so a pooled connection always leads to an address that passed the check of a request that
 * resolved the same name to it. An exchange whose connection fails before any answer (the receiver closed a kept-alive
 * connection while idle) is sent once more within the same timeout (the receiver may then see it twice: delivery is
 * at least once and receivers de-duplicate by `webhook-id`). `close` ends every connection.
 */
export const makeClosable = (
  options: Options = {}
): { readonly transport: WebhookTransport.WebhookTransport["Type"]; readonly close: () => void } => {
  const resolve = options.resolve ?? systemResolve
  const timeoutMillis = Duration.toMillis(options.timeout ?? WebhookTransport.timeout)
  const maxBytes = options.maxResponseBytes ?? WebhookTransport.maxResponseBytes

  // Where a URL's requests go, checked once: the address it resolved to and what each request to it repeats.
  interface Target {
    readonly secure: boolean
    readonly address: LookupAddress
    readonly port: number
    readonly path: string
    /** The URL's host (and port) for the `Host` header. */
    readonly host: string
    /** The name TLS sends (SNI) and checks the certificate against; none for an IP literal. */
    readonly servername: string | undefined
  }

  const target = (request: WebhookTransport.WebhookRequest): Effect.Effect<Target, Failure> =>
    Effect.gen(function* () {
      const url = URL.canParse(request.url) ? new URL(request.url) : undefined
      if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
        return yield* failure("invalid_url", "The webhook URL must be an absolute http or https URL")
      }
      if (url.username !== "" || url.password !== "") {
        return yield* failure("invalid_url", "The webhook URL must not carry credentials")
      }
      const production = request.environment === "PRODUCTION"
      if (production && url.protocol !== "https:") {
        return yield* failure("https_required", "A production platform's webhook URL must use https")
      }
      const literal = literalAddress(url.hostname)
      const addresses =
        literal === undefined
          ? yield* Effect.tryPromise({
              try: () => resolve(url.hostname),
              catch: () =>
                new WebhookTransport.WebhookSendFailed({
                  kind: "dns_failed",
                  message: `Could not resolve ${url.hostname}`
                })
            })
          : [literal]
      const first = addresses[0]
      if (first === undefined) return yield* failure("dns_failed", `${url.hostname} has no address`)
      if (production) {
        for (const candidate of addresses) {
          const refused = refusal(candidate.address)
          if (refused !== undefined) return yield* failure("address_refused", refused)
        }
      }
      const secure = url.protocol === "https:"
      return {
        secure,
        address: first,
        port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        host: url.host,
        servername: secure && literal === undefined ? url.hostname : undefined
      }
    })

  // undici's own timeouts are a backstop, later than the exchange's (`timeout` below answers first).
  const clientOptions = {
    keepAliveTimeout: idleConnectionMillis,
    keepAliveMaxTimeout: idleConnectionMillis,
    headersTimeout: 2 * timeoutMillis,
    bodyTimeout: 2 * timeoutMillis,
    connect: { timeout: 2 * timeoutMillis }
  }
  const originOf = (to: Target) =>
    `${to.secure ? "https" : "http"}://${to.address.family === 6 ? `[${to.address.address}]` : to.address.address}:${to.port}`

  // One undici pool per checked address, port and TLS server name: a pool's connections lead only to an address
  // that passed the check, and a server name change never drops another name's connections.
  const pools = new Map<string, Pool>()
  const poolOf = (to: Target): Pool => {
    const origin = originOf(to)
    const key = `${origin} ${to.servername ?? ""}`
    let pool = pools.get(key)
    if (pool === undefined) {
      if (pools.size >= maxPools) closeIdlePools()
      pool = new Pool(origin, clientOptions)
      pools.set(key, pool)
    }
    return pool
  }
  // Pools with no connection (every one idle past its keep-alive) are dropped once there are many.
  const closeIdlePools = () => {
    for (const [key, pool] of pools) {
      if (pool.stats.connected === 0 && pool.stats.pending === 0) {
        pools.delete(key)
        pool.close().catch(ignore)
      }
    }
  }

  // Starts the exchange of `request` with `to` and calls `done` once with its result; answers a function that
  // abandons it (ending its connection) unless it is done.
  const start = (
    request: WebhookTransport.WebhookRequest,
    to: Target,
    done: (result: Result) => void
  ): (() => void) => {
    const started = performance.now()
    const body = Buffer.from(request.body, "utf8")
    let settled = false
    let retried = false
    // The exchange on its connection, once it is written (undici's controller), to end it early.
    let current: Dispatcher.DispatchController | undefined
    // Ends the exchange, once: answers `result`, or, abandoned (no result), ends its connection unanswered.
    const conclude = (result: Result | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (result === undefined) current?.abort(abandoned)
      else done(result)
    }
    const timer = setTimeout(() => {
      conclude(failure("timeout", `No complete answer within ${timeoutMillis} ms`))
      current?.abort(abandoned)
    }, timeoutMillis)
    const headers = { ...request.headers, host: to.host }
    // Connects to the checked address itself (no lookup at all); the name goes in `Host` and, over TLS, in SNI
    // and the certificate check (`servername`; none for an IP literal, which SNI does not carry).
    const send = () => {
      let status = 0
      let answered = false
      const chunks: Array<Buffer> = []
      let length = 0
      const finish = () =>
        conclude(
          Either.right({
            status,
            latencyMillis: Math.round(performance.now() - started),
            body: chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8")
          })
        )
      // A resent exchange goes on a connection of its own (another kept-alive one may be as stale), closed after.
      const dispatcher = retried ? new Client(originOf(to), clientOptions) : poolOf(to)
      dispatcher.dispatch(
        {
          path: to.path,
          method: "POST",
          headers,
          body,
          ...(to.servername === undefined ? {} : { servername: to.servername })
        },
        {
          onRequestStart: (controller) => {
            current = controller
            // Concluded (timed out or abandoned) while it waited for a connection: it is not sent.
            if (settled) controller.abort(abandoned)
          },
          onResponseStart: (_controller, statusCode) => {
            answered = true
            status = statusCode
          },
          onResponseData: (controller, chunk) => {
            if (length >= maxBytes) return
            const kept = chunk.subarray(0, maxBytes - length)
            chunks.push(kept)
            length += kept.length
            if (length >= maxBytes) {
              // Enough: answer with what was read and drop the rest of the body with the connection.
              finish()
              controller.abort(abandoned)
            }
          },
          onResponseEnd: finish,
          onResponseError: (_controller, error) => {
            if (settled) return
            // A kept-alive connection the receiver closed while idle fails before any answer: sent once more.
            if (!answered && !retried && isStale(error)) {
              retried = true
              send()
            } else conclude(failure("connection_failed", error.message))
          }
        }
      )
      // Closed once its exchange ends (`close` lets a dispatched exchange finish).
      if (retried) dispatcher.close().catch(ignore)
    }
    send()
    return () => conclude(undefined)
  }

  const send = (request: WebhookTransport.WebhookRequest): Effect.Effect<WebhookTransport.WebhookResponse, Failure> =>
    Effect.flatMap(target(request), (to) =>
      Effect.async<WebhookTransport.WebhookResponse, Failure>((resume) => {
        const abandon = start(request, to, (result) => resume(result))
        return Effect.sync(abandon)
      })
    )

  // Each URL of a batch is checked (and its name resolved) once; every request starts at once, in this fiber, and
  // each answer is offered from the socket's callback: no fiber per request.
  const sendAll = (
    requests: ReadonlyArray<WebhookTransport.WebhookRequest>,
    answers: Queue.Enqueue<WebhookTransport.Answer>
  ): Effect.Effect<void, never, Scope.Scope> =>
    Effect.gen(function* () {
      const abandons: Array<() => void> = []
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          for (const abandon of abandons) abandon()
        })
      )
      const targets = new Map<string, Either.Either<Target, Failure>>()
      for (const [index, request] of requests.entries()) {
        const key = `${request.environment} ${request.url}`
        let to = targets.get(key)
        if (to === undefined) {
          to = yield* Effect.either(target(request))
          targets.set(key, to)
        }
        if (Either.isLeft(to)) answers.unsafeOffer({ index, result: Either.left(to.left) })
        else abandons.push(start(request, to.right, (result) => answers.unsafeOffer({ index, result })))
      }
    })

  return {
    // No span of its own: it runs inside the attempt's (`WebhookDispatch.attempt`), thousands of times a second.
    transport: { send, sendAll },
    close: () => {
      for (const pool of pools.values()) pool.destroy().catch(ignore)
      pools.clear()
    }
  }
}

/**
 * The transport of `makeClosable`, for a caller that never closes it: its idle connections do not keep the process
 * alive and end after 4 s.
 */
export const make = (options: Options = {}): WebhookTransport.WebhookTransport["Type"] =>
  makeClosable(options).transport

/** `NodeWebhookTransport` as a layer: the reference server's transport; releasing it ends the idle connections. */
export const layer = (options: Options = {}): Layer.Layer<WebhookTransport.WebhookTransport> =>
  Layer.scoped(
    WebhookTransport.WebhookTransport,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => makeClosable(options)),
        ({ close }) => Effect.sync(close)
      ),
      ({ transport }) => transport
    )
  )
