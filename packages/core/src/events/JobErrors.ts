import { Schema } from "effect"

/**
 * A job's attempt failed. The worker records `message` as the job's `lastError` (so it must not carry secrets) and
 * retries with the handler's backoff, at `retryAt` when the handler names the time, or never when `permanent`.
 */
export class JobFailed extends Schema.TaggedError<JobFailed>()("JobFailed", {
  message: Schema.String,
  /** When to try again instead of the policy's backoff (still bounded by its maximum attempts). */
  retryAt: Schema.optional(Schema.DateTimeUtcFromSelf),
  /** Whether no further attempt could succeed: the job is buried at once. */
  permanent: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {
  /** An attempt that may succeed later: retried on the handler's backoff schedule. */
  static retry(message: string): JobFailed {
    return new JobFailed({ message })
  }

  /** An attempt to be tried again at `retryAt` (a receiver's `Retry-After`, a known reopening time). */
  static retryAt(message: string, retryAt: JobFailed["retryAt"] & {}): JobFailed {
    return new JobFailed({ message, retryAt })
  }

  /** A failure no retry can fix (the work no longer exists, a request the receiver refuses): buried at once. */
  static permanent(message: string): JobFailed {
    return new JobFailed({ message, permanent: true })
  }
}
