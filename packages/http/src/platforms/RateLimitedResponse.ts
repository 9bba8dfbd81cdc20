import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Schema } from "effect"
import type { Errors } from "@payrail/core"
import { Authentication } from "@payrail/api"

const encode = Schema.encodeSync(Authentication.RateLimitedBody)

/**
 * The 429 answer to a `RATE_LIMITED` refusal: the spec's error body and a `Retry-After` header of the same whole
 * seconds as `details.retryAfterSeconds`, so clients and proxies that read either wait the same time.
 */
export const of = (error: Errors.RateLimited): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(encode(error), {
    status: 429,
    headers: { "retry-after": String(error.details.retryAfterSeconds) }
  })
