import { Schema } from "effect"

/**
 * The server answered with an error. `status` is the HTTP status; `code`, `reason` and `details` are the error body's,
 * exactly as the server sent them (see the API conventions for every code). An answer that is not a Payrail error
 * body (a proxy's HTML page, say) arrives with `code: "UNEXPECTED_RESPONSE"` and the status it came with.
 *
 * The Effect face fails with it (match it with `Effect.catchTag("PayrailError", ...)`); the Promise face rejects with
 * it (`error instanceof PayrailError`).
 */
export class PayrailError extends Schema.TaggedError<PayrailError>("@payrail/client/PayrailError")("PayrailError", {
  status: Schema.Int,
  code: Schema.String,
  reason: Schema.String,
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}) {
  /** `<status> <code>: <reason>`, what a log line or a thrown error shows. */
  override get message(): string {
    return `${this.status} ${this.code}: ${this.reason}`
  }

  /** The error an answer with this status and body stands for. */
  static fromBody(status: number, body: unknown): PayrailError {
    if (typeof body === "object" && body !== null) {
      const { code, reason, details } = body as Record<string, unknown>
      if (typeof code === "string" && typeof reason === "string") {
        return new PayrailError({
          status,
          code,
          reason,
          ...(typeof details === "object" && details !== null && !Array.isArray(details)
            ? { details: details as Record<string, unknown> }
            : {})
        })
      }
    }
    return new PayrailError({
      status,
      code: "UNEXPECTED_RESPONSE",
      reason: `The server answered ${status} without a Payrail error body`
    })
  }
}

/**
 * No usable answer came back: the connection failed or was cut, the request was aborted, or a success answer could not
 * be read as the contract describes it. Retrying a mutation after it is safe with the same `Idempotency-Key` (which
 * the client reuses on its own retries): the server answers the first outcome again if the request had arrived.
 */
export class PayrailNetworkError extends Schema.TaggedError<PayrailNetworkError>("@payrail/client/PayrailNetworkError")(
  "PayrailNetworkError",
  {
    reason: Schema.String
  }
) {
  override get message(): string {
    return this.reason
  }
}

/** Every failure a client call can end with. */
export type PayrailClientError = PayrailError | PayrailNetworkError

/** Whether `error` is an answer of the server (`PayrailError`) rather than a network failure. */
export const isPayrailError = (error: unknown): error is PayrailError => error instanceof PayrailError

/** Whether `error` is a network failure (`PayrailNetworkError`): no usable answer came back. */
export const isPayrailNetworkError = (error: unknown): error is PayrailNetworkError =>
  error instanceof PayrailNetworkError
