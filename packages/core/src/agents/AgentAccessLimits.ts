import { Clock, Context, Effect, Option } from "effect"
import { RateLimit, RateLimited, RateLimiter, type StoreFailure } from "../kernel/index.js"

/**
 * The limit on failed agent credentials per source address: failed device-code redeems and failed bearer tokens
 * both count, in the shared store (`RateLimiter`), so every instance on one database shares the count. Twenty per
 * minute by default; `Option.none()` turns it off.
 */
export class AgentAccessLimits extends Context.Reference<AgentAccessLimits>()("@payrail/core/AgentAccessLimits", {
  defaultValue: (): Option.Option<RateLimit.RateLimit> => Option.some(RateLimit.perMinute(failuresPerSourceAddress, 20))
}) {}

/** The limit's name in the refusal's `details.limit`. */
export const failuresPerSourceAddress = "failed_agent_credentials_per_source_address"

/** The most locked addresses this process remembers; beyond it the earliest goes first. */
const capacity = 10_000

/**
 * Counts failures per address. Once the shared count refuses, the address is locked in this process until the
 * refusal lifts, and every attempt from it (right credentials included) is refused `RATE_LIMITED` without any
 * lookup, so the answer never tells a guesser whether a guess was right.
 */
export interface AccessGuard {
  /** Fails `RATE_LIMITED` while the address is locked; succeeds otherwise (no address: never locked). */
  readonly check: (sourceAddress: string | undefined) => Effect.Effect<void, RateLimited.RateLimited>
  /**
   * Runs `attempt`; when it fails with an error `counts` accepts, the failure is counted against the address and,
   * if that passes the limit, turned into `RATE_LIMITED`.
   */
  readonly guard: <A, E, R>(
    sourceAddress: string | undefined,
    counts: (error: E) => boolean,
    attempt: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | RateLimited.RateLimited | StoreFailure.StoreFailure, R>
}

/** A guard on the store's `RateLimiter` and the current `AgentAccessLimits`. */
export const make: Effect.Effect<AccessGuard, never, RateLimiter.RateLimiter> = Effect.gen(function* () {
  const limiter = yield* RateLimiter.RateLimiter
  const limit = yield* AgentAccessLimits
  const lockedUntil = new Map<string, number>()
  const keyOf = (sourceAddress: string | undefined) =>
    Option.isSome(limit) && sourceAddress !== undefined && sourceAddress !== ""
      ? Option.some(`agent-failures:address:${sourceAddress}`)
      : Option.none()

  const check = (sourceAddress: string | undefined) =>
    Effect.gen(function* () {
      const key = keyOf(sourceAddress)
      if (Option.isNone(key) || Option.isNone(limit)) return
      const until = lockedUntil.get(key.value)
      if (until === undefined) return
      const now = yield* Clock.currentTimeMillis
      if (until <= now) {
        lockedUntil.delete(key.value)
        return
      }
      return yield* Effect.fail(RateLimited.RateLimited.of(limit.value, until - now))
    })

  const count = (sourceAddress: string | undefined) =>
    Effect.gen(function* () {
      const key = keyOf(sourceAddress)
      if (Option.isNone(key) || Option.isNone(limit)) return
      const admission = yield* limiter.consume(key.value, limit.value)
      if (admission.admitted) return
      const now = yield* Clock.currentTimeMillis
      lockedUntil.delete(key.value)
      if (lockedUntil.size >= capacity) {
        const oldest = lockedUntil.keys().next()
        if (oldest.done !== true) lockedUntil.delete(oldest.value)
      }
      lockedUntil.set(key.value, now + admission.retryAfterMillis)
      return yield* Effect.fail(RateLimited.RateLimited.of(limit.value, admission.retryAfterMillis))
    })

  return {
    check,
    guard: <A, E, R>(
      sourceAddress: string | undefined,
      counts: (error: E) => boolean,
      attempt: Effect.Effect<A, E, R>
    ) =>
      Effect.zipRight(
        check(sourceAddress),
        Effect.catchIf(attempt, counts, (error) => Effect.zipRight(count(sourceAddress), Effect.fail(error)))
      )
  }
})
