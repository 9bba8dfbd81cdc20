import { type Array as Arr, DateTime, Duration, Effect, type Exit, Random } from "effect"
import type { Job } from "./Job.js"
import type { JobFailed } from "./JobErrors.js"

/**
 * How a kind of job is retried: at most `maxAttempts` attempts in all; the n-th failure waits
 * `min(backoffCap, backoffBase * 2^(n-1))`, shortened by a random fraction of at most `jitter` (0 to 1) so that
 * jobs failing together do not retry together.
 */
export interface RetryPolicy {
  readonly maxAttempts: number
  readonly backoffBase: Duration.DurationInput
  readonly backoffCap: Duration.DurationInput
  readonly jitter: number
}

/** Ten attempts, from 1 second doubling up to 1 hour between attempts, with 20% jitter. */
export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 10,
  backoffBase: Duration.seconds(1),
  backoffCap: Duration.hours(1),
  jitter: 0.2
}

/**
 * What runs the jobs of one `kind`. `handle` is called with the job as claimed (its `attempts` counts this one) and
 * may run more than once for one job (a worker that dies mid-job loses its lease): it must be idempotent. It must
 * finish within 90% of the worker's lease, or it is interrupted and the attempt counts as failed.
 */
export interface JobHandler<R = never> {
  readonly kind: string
  readonly retry: RetryPolicy
  readonly handle: (job: Job) => Effect.Effect<void, JobFailed, R>
  /**
   * Runs many claimed jobs of this kind (of one platform time) at once, in one fiber, instead of `handle` in a fiber
   * per job: for a kind whose jobs run by the thousand and share their store work. It reports the outcome of each job
   * (by its index in `jobs`) through `report` as soon as it has it, possibly many in one call, which settles them
   * (the worker completes the successful ones in one statement) and frees their slots; a job it never reports fails
   * its attempt (or is released, when the worker interrupted the batch to shut down). The same lease budget and
   * idempotency rules as `handle` apply to the whole batch.
   */
  readonly handleBatch?: (
    jobs: Arr.NonEmptyReadonlyArray<Job>,
    report: (outcomes: ReadonlyArray<BatchOutcome>) => Effect.Effect<void>
  ) => Effect.Effect<void, never, R>
}

/** The outcome of the job at `index` of a batch (`JobHandler.handleBatch`). */
export interface BatchOutcome {
  readonly index: number
  readonly exit: Exit.Exit<void, JobFailed>
}

/** A handler of `kind`, with `defaultRetryPolicy` unless `retry` overrides some of it. */
export const make = <R>(options: {
  readonly kind: string
  readonly handle: (job: Job) => Effect.Effect<void, JobFailed, R>
  readonly handleBatch?: JobHandler<R>["handleBatch"]
  readonly retry?: Partial<RetryPolicy>
}): JobHandler<R> => ({
  kind: options.kind,
  handle: options.handle,
  ...(options.handleBatch === undefined ? {} : { handleBatch: options.handleBatch }),
  retry: { ...defaultRetryPolicy, ...options.retry }
})

/**
 * The wait after the `attempts`-th failed attempt (1 for the first): exponential from `backoffBase`, capped at
 * `backoffCap`, less up to `jitter` of it drawn from the `Random` service (so a seeded `Random` repeats it).
 * Exponential backoff is a line of arithmetic here because the attempt count lives in the store, not in a running
 * `Schedule`.
 */
export const backoff = (policy: RetryPolicy, attempts: number): Effect.Effect<Duration.Duration> => {
  const cap = Duration.decode(policy.backoffCap)
  // 2^(attempts-1) overflows to Infinity past about 1,000 attempts: capping first keeps the product finite.
  const exponent = Math.min(Math.max(attempts - 1, 0), 62)
  const full = Duration.min(Duration.times(Duration.decode(policy.backoffBase), 2 ** exponent), cap)
  const jitter = Math.min(Math.max(policy.jitter, 0), 1)
  if (jitter === 0) return Effect.succeed(full)
  return Effect.map(Random.next, (fraction) => Duration.times(full, 1 - jitter * fraction))
}

/** When a job that failed its `attempts`-th attempt at `now` is due again under `policy`. */
export const nextAttemptAt = (policy: RetryPolicy, attempts: number, now: DateTime.Utc): Effect.Effect<DateTime.Utc> =>
  Effect.map(backoff(policy, attempts), (wait) => DateTime.addDuration(now, wait))
