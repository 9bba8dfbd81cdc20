import { Chunk, DateTime, Duration, Effect, Option, Schedule } from "effect"

/** The first retry waits about this long; each later one twice the previous. */
export const firstDelay: Duration.Duration = Duration.seconds(5)

/** No wait between two attempts is longer. */
export const maxDelay: Duration.Duration = Duration.minutes(30)

/** A delivery whose next attempt would fall later than this after its creation is given up (`DEAD`). */
export const retryWindow: Duration.Duration = Duration.days(7)

/**
 * Exponential backoff from `firstDelay`, doubling, each wait jittered (×0.8 to ×1.2, from Effect's `Random`), and
 * never more than `maxDelay`.
 */
export const policy = Schedule.exponential(firstDelay, 2).pipe(
  Schedule.jittered,
  Schedule.union(Schedule.spaced(maxDelay))
)

/** The wait after the `attempts`-th failed attempt (1 for the first failure), as `policy` gives it. */
export const delayAfter = (attempts: number): Effect.Effect<Duration.Duration> =>
  Effect.map(
    Schedule.run(
      Schedule.delays(policy),
      0,
      Array.from({ length: Math.max(1, attempts) }, (_, index) => index)
    ),
    (delays) => Option.getOrElse(Chunk.last(delays), () => maxDelay)
  )

/**
 * When to try again after the `attempts`-th failed attempt at `now` of a delivery created at `createdAt`: none when
 * that would fall past `retryWindow` (give up).
 */
export const nextAttemptAt = (
  attempts: number,
  now: DateTime.Utc,
  createdAt: DateTime.Utc
): Effect.Effect<Option.Option<DateTime.Utc>> =>
  Effect.map(delayAfter(attempts), (delay) => {
    const next = DateTime.addDuration(now, delay)
    return DateTime.lessThanOrEqualTo(next, DateTime.addDuration(createdAt, retryWindow))
      ? Option.some(next)
      : Option.none()
  })
