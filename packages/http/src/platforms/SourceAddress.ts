import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Context, Option } from "effect"
import ipaddr from "ipaddr.js"
import proxyAddr from "proxy-addr"

/**
 * The proxies whose `X-Forwarded-For` is believed, in `proxy-addr`'s notation: addresses, CIDR ranges, and the
 * names `loopback`, `linklocal` and `uniquelocal`. Empty unless provided (the default): the source address is then
 * the socket's remote address and `X-Forwarded-For` is ignored, so no client can choose its own address.
 */
export class TrustedProxies extends Context.Reference<TrustedProxies>()("@payrail/http/TrustedProxies", {
  defaultValue: (): ReadonlyArray<string> => []
}) {}

/**
 * The key a source address is limited by: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4), an
 * IPv6 address as its /64 network (`2001:db8:1:2::/64`), since one subscriber commonly holds a whole /64. Undefined
 * for anything that is not an IP address.
 */
export const limitKey = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return undefined
  const parsed = ipaddr.process(address)
  if (parsed.kind() === "ipv4") return parsed.toString()
  const network = ipaddr.IPv6.parse(address).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...network, 0, 0, 0, 0]).toString()}/64`
}

const forwardedFor = (header: string | undefined): ReadonlyArray<string> =>
  header === undefined
    ? []
    : header
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "")

/**
 * Reads the source address of requests: the socket's remote address, or, when that is a trusted proxy, the
 * address it forwarded for (walking `X-Forwarded-For` from the right while each hop is trusted, as `proxy-addr`
 * does). Returns its `limitKey`, or undefined when the request carries no socket address (a web-standard handler).
 * Throws at construction when an entry of `trusted` is not an address, range or known name.
 */
export const make = (
  trusted: ReadonlyArray<string>
): ((request: Pick<HttpServerRequest.HttpServerRequest, "remoteAddress" | "headers">) => string | undefined) => {
  const trust = trusted.length === 0 ? undefined : proxyAddr.compile([...trusted])
  return (request) => {
    const socket = Option.getOrUndefined(request.remoteAddress)
    if (socket === undefined) return undefined
    if (trust === undefined) return limitKey(socket)
    const hops = [socket, ...[...forwardedFor(request.headers["x-forwarded-for"])].reverse()]
    let index = 0
    while (index < hops.length - 1 && trust(hops[index]!, index)) index++
    // A forwarded entry that is no address falls back to the socket's: the client still counts somewhere.
    return limitKey(hops[index]!) ?? limitKey(socket)
  }
}
