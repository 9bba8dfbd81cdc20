import { Clock, DateTime, Duration, Effect } from "effect"

/**
 * A platform's time: real time plus the offset its sandbox clock was advanced by (zero for production platforms and
 * for sandboxes whose clock never moved). Requests and jobs of a platform run under a `Clock` that reads its time,
 * so every timestamp they record and every due time they compute is in the platform's time; stores keep the due
 * times of jobs in real time, and convert with `toRealTime`.
 *
 * A shifted clock sleeps as its base does (an offset moves the time, not the pace), and its `unsafe` readings are the
 * base's: Effect's logger stamps log lines with them, so operators read real time in every log line.
 */
class ShiftedClock implements Clock.Clock {
  readonly [Clock.ClockTypeId]: Clock.ClockTypeId = Clock.ClockTypeId
  constructor(
    readonly base: Clock.Clock,
    /** The offset in milliseconds, read in the calling fiber's context. */
    readonly offsetMillis: Effect.Effect<number>
  ) {}
  unsafeCurrentTimeMillis(): number {
    return this.base.unsafeCurrentTimeMillis()
  }
  get currentTimeMillis(): Effect.Effect<number> {
    return Effect.zipWith(this.base.currentTimeMillis, this.offsetMillis, (now, offset) => now + offset)
  }
  unsafeCurrentTimeNanos(): bigint {
    return this.base.unsafeCurrentTimeNanos()
  }
  get currentTimeNanos(): Effect.Effect<bigint> {
    return Effect.zipWith(
      this.base.currentTimeNanos,
      this.offsetMillis,
      (now, offset) => now + BigInt(offset) * 1_000_000n
    )
  }
  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return this.base.sleep(duration)
  }
}

/** A clock `offset` ahead of `base`. */
export const clock = (base: Clock.Clock, offset: Duration.DurationInput): Clock.Clock =>
  new ShiftedClock(base, Effect.succeed(Duration.toMillis(offset)))

/**
 * A clock ahead of `base` by what `offset` reads in the fiber that asks the time: how a server runs every request
 * at its caller's platform time with one clock (the offset comes from the request's context).
 */
export const contextual = (base: Clock.Clock, offset: Effect.Effect<Duration.Duration>): Clock.Clock =>
  new ShiftedClock(base, Effect.map(offset, Duration.toMillis))

/** Runs `effect` with its clock `offset` ahead of the current one (nothing changes for a zero offset). */
export const within =
  (offset: Duration.DurationInput) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Duration.isZero(Duration.decode(offset))
      ? effect
      : Effect.flatMap(Effect.clock, (base) => Effect.withClock(effect, clock(base, offset)))

// The offset of `current` from the real clock under it, in milliseconds, and that clock.
const unwrap = (current: Clock.Clock): Effect.Effect<readonly [offsetMillis: number, real: Clock.Clock]> =>
  current instanceof ShiftedClock
    ? Effect.zipWith(current.offsetMillis, unwrap(current.base), (own, [under, real]) => [own + under, real] as const)
    : Effect.succeed([0, current] as const)

/** How far the current clock runs ahead of real time (zero outside any platform's time). */
export const offset: Effect.Effect<Duration.Duration> = Effect.flatMap(Effect.clock, (current) =>
  Effect.map(unwrap(current), ([millis]) => Duration.millis(millis))
)

/**
 * Real time, whatever platform's time the caller runs in: for what other parties compare with their own clocks,
 * such as the timestamp a webhook signature covers.
 */
export const realNow: Effect.Effect<DateTime.Utc> = Effect.flatMap(Effect.clock, (current) =>
  Effect.flatMap(unwrap(current), ([, real]) => Effect.map(real.currentTimeMillis, DateTime.unsafeMake))
)

/** The real time at which the current clock will read `at`. */
export const toRealTime = (at: DateTime.Utc): Effect.Effect<DateTime.Utc> =>
  Effect.map(offset, (shift) => DateTime.subtractDuration(at, shift))
