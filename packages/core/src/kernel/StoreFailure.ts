import { Schema } from "effect"

/**
 * The store could not complete the operation (connection lost, disk full…). Code `INTERNAL_ERROR` (500).
 * `operation` and `cause` are for logs; the response body carries only the generic `reason`.
 */
export class StoreFailure extends Schema.TaggedError<StoreFailure>()("StoreFailure", {
  code: Schema.tag("INTERNAL_ERROR"),
  reason: Schema.String,
  operation: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {
  /** Wraps a low-level store error raised during `operation`. */
  static wrap(operation: string) {
    return (cause: unknown) => StoreFailure.of(operation, cause)
  }

  /** A store failure during `operation`, optionally caused by a low-level error. */
  static of(operation: string, cause?: unknown) {
    return new StoreFailure({
      reason: "The service could not complete the request",
      operation,
      ...(cause === undefined ? {} : { cause })
    })
  }
}
