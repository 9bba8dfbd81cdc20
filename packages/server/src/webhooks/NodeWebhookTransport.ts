import { Duration, Effect, Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { performance } from "node:perf_hooks"
import ipaddr from "ipaddr.js"
import { WebhookTransport } from "@payrail/core"
import { refusal } from "./AddressPolicy.js"

type Failure = WebhookTransport.WebhookSendFailed
type FailureKind = WebhookTransport.FailureKind

const fail = (kind: FailureKind, message: string): Effect.Effect<never, Failure> =>
  Effect.fail(new WebhookTransport.WebhookSendFailed({ kind, message }))

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

// A `lookup` that answers only the address already checked, so the connection goes exactly there whatever the
// resolver would answer now (a DNS rebind between the check and the connection changes nothing).
const pinned =
  (address: LookupAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [address])
    else callback(null, address.address, address.family)
  }

const literalAddress = (hostname: string): LookupAddress | undefined => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  if (!ipaddr.isValid(bare)) return undefined
  return { address: bare, family: ipaddr.parse(bare).kind() === "ipv6" ? 6 : 4 }
}

/**
 * `WebhookTransport` on Node's `http`/`https`. It parses the URL, resolves the host itself and, for a `PRODUCTION`
 * platform, requires https and refuses (before connecting) when any address the host resolves to is not public
 * unicast (`AddressPolicy`); then it connects to the checked address only. `SANDBOX` platforms may use http and any
 * address. Redirects are never followed; the response body is read up to `maxResponseBytes` and the connection then
 * dropped; the whole exchange is bounded by `timeout` (wall clock).
 */
export const make = (options: Options = {}): WebhookTransport.WebhookTransport["Type"] => {
  const resolve = options.resolve ?? systemResolve
  const timeoutMillis = Duration.toMillis(options.timeout ?? WebhookTransport.timeout)
  const maxBytes = options.maxResponseBytes ?? WebhookTransport.maxResponseBytes

  const target = (request: WebhookTransport.WebhookRequest) =>
    Effect.gen(function* () {
      const url = URL.canParse(request.url) ? new URL(request.url) : undefined
      if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
        return yield* fail("invalid_url", "The webhook URL must be an absolute http or https URL")
      }
      if (url.username !== "" || url.password !== "") {
        return yield* fail("invalid_url", "The webhook URL must not carry credentials")
      }
      const production = request.environment === "PRODUCTION"
      if (production && url.protocol !== "https:") {
        return yield* fail("https_required", "A production platform's webhook URL must use https")
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
      if (first === undefined) return yield* fail("dns_failed", `${url.hostname} has no address`)
      if (production) {
        for (const candidate of addresses) {
          const refused = refusal(candidate.address)
          if (refused !== undefined) return yield* fail("address_refused", refused)
        }
      }
      return { url, address: first }
    })

  const exchange = (
    request: WebhookTransport.WebhookRequest,
    url: URL,
    address: LookupAddress
  ): Effect.Effect<WebhookTransport.WebhookResponse, Failure> =>
    Effect.async<WebhookTransport.WebhookResponse, Failure>((resume) => {
      const started = performance.now()
      const body = Buffer.from(request.body, "utf8")
      const client = url.protocol === "https:" ? https : http
      let settled = false
      const settle = (outcome: Effect.Effect<WebhookTransport.WebhookResponse, Failure>) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(outcome)
      }
      const outgoing = client.request(url, {
        method: "POST",
        headers: { ...request.headers, "content-length": String(body.length) },
        lookup: pinned(address),
        agent: false
      })
      const timer = setTimeout(() => {
        settle(fail("timeout", `No complete answer within ${timeoutMillis} ms`))
        outgoing.destroy()
      }, timeoutMillis)
      outgoing.on("error", (error) => settle(fail("connection_failed", error.message)))
      outgoing.on("response", (response) => {
        const chunks: Array<Buffer> = []
        let length = 0
        const finish = () =>
          settle(
            Effect.succeed({
              status: response.statusCode ?? 0,
              latencyMillis: Math.round(performance.now() - started),
              body: Buffer.concat(chunks).toString("utf8")
            })
          )
        response.on("data", (chunk: Buffer) => {
          if (length >= maxBytes) return
          const kept = chunk.subarray(0, maxBytes - length)
          chunks.push(kept)
          length += kept.length
          if (length >= maxBytes) {
            // Enough: answer with what was read and drop the rest of the body with the connection.
            finish()
            response.destroy()
          }
        })
        response.on("end", finish)
        response.on("error", (error) => settle(fail("connection_failed", error.message)))
      })
      outgoing.end(body)
      return Effect.sync(() => {
        settled = true
        clearTimeout(timer)
        outgoing.destroy()
      })
    })

  return {
    send: (request) =>
      Effect.flatMap(target(request), ({ address, url }) => exchange(request, url, address)).pipe(
        Effect.withSpan("NodeWebhookTransport.send")
      )
  }
}

/** `NodeWebhookTransport.make()` as a layer: the reference server's transport. */
export const layer = (options: Options = {}): Layer.Layer<WebhookTransport.WebhookTransport> =>
  Layer.succeed(WebhookTransport.WebhookTransport, make(options))
