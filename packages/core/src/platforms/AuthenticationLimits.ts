import { Context, Option } from "effect"
import { RateLimit } from "../kernel/index.js"

/**
 * The rate limits `Authentication` enforces; each can be turned off (`Option.none()`).
 *
 * - `failuresPerClientId` and `failuresPerSourceAddress`: failed authentications, counted in the shared store
 *   (`RateLimiter`), so every instance on one database shares the count. Only a failure costs a statement. Once a
 *   limit refuses, every request with that client id or from that address is refused `RATE_LIMITED` until it lifts,
 *   correct credentials included, so the answer never tells whether a guess was right.
 * - `requestsPerToken`: authenticated requests per API token, counted in this process only (no storage round
 *   trip), so N instances behind a load balancer admit up to N times the figure.
 */
export interface Limits {
  readonly failuresPerClientId: Option.Option<RateLimit.RateLimit>
  readonly failuresPerSourceAddress: Option.Option<RateLimit.RateLimit>
  readonly requestsPerToken: Option.Option<RateLimit.RateLimit>
}

/** The limit names that appear in `details.limit` of a `RATE_LIMITED` refusal. */
export const names = {
  failuresPerClientId: "failed_authentication_per_client_id",
  failuresPerSourceAddress: "failed_authentication_per_source_address",
  requestsPerToken: "requests_per_api_token"
} as const

/**
 * Limits from plain figures; a figure of 0 turns its limit off. Failures are counted per `failureWindowSeconds`
 * (all of them admitted at once from rest, then one more every `window / count`); requests per token are a token
 * bucket of `requestBurst` refilled at `requestsPerSecond`.
 */
export const make = (figures: {
  readonly failuresPerClientId: number
  readonly failuresPerSourceAddress: number
  readonly failureWindowSeconds: number
  readonly requestsPerSecond: number
  readonly requestBurst: number
}): Limits => {
  const windowMillis = figures.failureWindowSeconds * 1000
  const failures = (name: string, count: number) =>
    count > 0 && windowMillis > 0 ? Option.some(RateLimit.perWindow(name, count, windowMillis)) : Option.none()
  return {
    failuresPerClientId: failures(names.failuresPerClientId, figures.failuresPerClientId),
    failuresPerSourceAddress: failures(names.failuresPerSourceAddress, figures.failuresPerSourceAddress),
    requestsPerToken:
      figures.requestsPerSecond > 0 && figures.requestBurst > 0
        ? Option.some(RateLimit.tokenBucket(names.requestsPerToken, figures.requestBurst, figures.requestsPerSecond))
        : Option.none()
  }
}

/** The defaults: 20 failures a minute per client id, 100 per source address, and bursts of 200 at 100 a second. */
export const defaults: Limits = make({
  failuresPerClientId: 20,
  failuresPerSourceAddress: 100,
  failureWindowSeconds: 60,
  requestsPerSecond: 100,
  requestBurst: 200
})

/** No limit at all (for trusted embedders and load tests). */
export const none: Limits = {
  failuresPerClientId: Option.none(),
  failuresPerSourceAddress: Option.none(),
  requestsPerToken: Option.none()
}

/** The limits `Authentication` enforces: `defaults` unless provided otherwise. */
export class AuthenticationLimits extends Context.Reference<AuthenticationLimits>()(
  "@payrail/core/AuthenticationLimits",
  { defaultValue: (): Limits => defaults }
) {}
