import { Schema } from "effect"
import { type RateLimit, retryAfterSeconds } from "./RateLimit.js"

/**
 * A rate limit refused the request. Code `RATE_LIMITED` (429, with a `Retry-After` header of
 * `details.retryAfterSeconds`). `details.limit` names the limit (`failed_authentication_per_client_id`...), never
 * a value the client sent.
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  code: Schema.tag("RATE_LIMITED"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("rate_limit"),
    limit: Schema.String,
    retryAfterSeconds: Schema.Int.pipe(Schema.positive())
  })
}) {
  /** The refusal by `limit`, to be retried after `retryAfterMillis` (told in whole seconds, rounded up). */
  static of(limit: RateLimit, retryAfterMillis: number): RateLimited {
    const seconds = retryAfterSeconds(retryAfterMillis)
    return new RateLimited({
      reason: `Too many requests (${limit.name}); retry after ${seconds} seconds`,
      details: { rule: "rate_limit", limit: limit.name, retryAfterSeconds: seconds }
    })
  }
}
