import { Duration, Effect, Option, Schedule } from "effect"
import { CredentialChanges } from "./CredentialChanges.js"

/** How long a credential change waits to be observed before it answers anyway (the cache's time to live bounds the rest). */
export const maxWait = Duration.seconds(1)

/**
 * Runs `change` (a write to tokens or platforms) and, when it `changed`, answers only once this process has
 * observed a credential change since it started: on stores that signal changes asynchronously (PostgreSQL's
 * `NOTIFY`, delivered to every listening server at once), the caller's next request then never meets a cached
 * credential from before the change. Waits at most `maxWait`; stores that cannot signal changes cache nothing,
 * so there is nothing to wait for.
 */
export const awaitSeen = <A, E, R>(
  change: Effect.Effect<A, E, R>,
  changed: (result: A) => boolean
): Effect.Effect<A, E, R | CredentialChanges> =>
  Effect.gen(function* () {
    const changes = yield* CredentialChanges
    const before = yield* changes.version
    const result = yield* change
    if (Option.isNone(before) || !changed(result)) return result
    const moved = changes.version.pipe(
      Effect.filterOrFail(
        (now) => Option.isNone(now) || now.value !== before.value,
        () => "not yet" as const
      )
    )
    yield* moved.pipe(Effect.retry(Schedule.spaced(Duration.millis(2)).pipe(Schedule.upTo(maxWait))), Effect.ignore)
    return result
  })
