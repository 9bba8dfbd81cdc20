import { Schema } from "effect"

/**
 * The `Idempotency-Key` was used before, on this platform, for a different request (another method, path or body).
 * Code `CONFLICT` (409), rule `idempotency_key_reused`: the client must send a new key for a new request.
 */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("idempotency_key_reused") })
}) {
  static of(): IdempotencyKeyReused {
    return new IdempotencyKeyReused({
      reason: "The Idempotency-Key was already used for a different request",
      details: { rule: "idempotency_key_reused" }
    })
  }
}

/**
 * Another request with the same `Idempotency-Key` is being processed right now. Code `CONFLICT` (409), rule
 * `idempotency_key_in_progress`: the client retries the same request after `retryAfterSeconds` and then gets its
 * outcome.
 */
export class IdempotencyKeyInProgress extends Schema.TaggedError<IdempotencyKeyInProgress>()(
  "IdempotencyKeyInProgress",
  {
    code: Schema.tag("CONFLICT"),
    reason: Schema.String,
    details: Schema.Struct({
      rule: Schema.Literal("idempotency_key_in_progress"),
      retryAfterSeconds: Schema.Int
    })
  }
) {
  /** How long a client should wait before retrying, in seconds. */
  static readonly retryAfterSeconds = 1

  static of(): IdempotencyKeyInProgress {
    return new IdempotencyKeyInProgress({
      reason: "A request with this Idempotency-Key is in progress; retry it shortly",
      details: { rule: "idempotency_key_in_progress", retryAfterSeconds: IdempotencyKeyInProgress.retryAfterSeconds }
    })
  }
}
