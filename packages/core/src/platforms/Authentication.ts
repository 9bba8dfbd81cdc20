import { Clock, Context, Duration, Effect, Layer, Option, type Redacted } from "effect"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import { AuthenticationLimits } from "./AuthenticationLimits.js"
import type { Caller } from "./Caller.js"
import * as CredentialCache from "./CredentialCache.js"
import { CredentialChanges } from "./CredentialChanges.js"
import * as Lockouts from "./internal/Lockouts.js"
import { Unauthenticated } from "./PlatformErrors.js"
import { type RateLimit, RateLimited, RateLimiter, RateLimitTable, type StoreFailure } from "../kernel/index.js"

/**
 * Checks API credentials: one storage lookup (the token and its platform together), or none when the same
 * credentials were verified in the last few seconds and no token or platform has changed since (see
 * `CredentialCache`; a revocation anywhere makes every cached credential stale at once). It enforces the
 * `AuthenticationLimits`: a failure costs one statement per failure limit (shared with every instance through the
 * `RateLimiter`); a success costs none.
 */
export class Authentication extends Context.Tag("@payrail/core/Authentication")<
  Authentication,
  {
    /**
     * The caller whose token has this client id and secret. Every failure is the same `UNAUTHORIZED`, and an
     * unknown client id costs the same hashing and comparison as a wrong secret, so responses reveal nothing.
     * `sourceAddress` (the client's address, or its IPv6 /64; none when unknown) is counted for failures.
     *
     * `RATE_LIMITED` when a failure limit of this client id or source address holds, whether or not these
     * credentials are right (a limit that let the right secret through would tell a guesser when it had found
     * it), or when the token's request limit refuses. Another instance's lockout is seen here once this process
     * has itself counted a failure for the key, so with N instances at most N more guesses are checked per lock.
     */
    readonly authenticate: (
      clientId: string,
      clientSecret: Redacted.Redacted<string>,
      sourceAddress?: string
    ) => Effect.Effect<Caller, Unauthenticated | RateLimited.RateLimited | StoreFailure.StoreFailure>
  }
>() {}

const rejected = Unauthenticated.of()
const unknownTokenHash = "0".repeat(64)

/** The most keys remembered for the per-token and lockout tables; beyond it the oldest goes first. */
const tableCapacity = 10_000

// Client ids no token can have (empty, NUL, longer than any issued) are not counted per client id: there is no
// secret behind them to guess. Their failures still count against the source address.
const countableClientId = (clientId: string): boolean =>
  clientId.length > 0 && clientId.length <= 128 && !clientId.includes("\u0000")

interface Counted {
  readonly key: string
  readonly limit: RateLimit.RateLimit
}

/** `Authentication` on the `ApiTokenRepo`, caching verified credentials while `CredentialChanges` can see changes. */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const tokens = yield* ApiTokenRepo
    const changes = yield* CredentialChanges
    const limiter = yield* RateLimiter.RateLimiter
    const limits = yield* AuthenticationLimits
    const lockouts = Lockouts.make(tableCapacity)
    const requests = RateLimitTable.make(tableCapacity)
    const cache = CredentialCache.make({
      timeToLiveMillis: Duration.toMillis(yield* CredentialCache.TimeToLive),
      capacity: CredentialCache.capacity
    })

    const lookUp = (clientId: string, clientSecret: Redacted.Redacted<string>) =>
      Effect.gen(function* () {
        const found =
          clientId.length > 0 && clientId.length <= 128 ? yield* tokens.findWithPlatform(clientId) : Option.none()
        const matches = yield* ApiTokenSecret.verify(
          clientSecret,
          Option.match(found, { onNone: () => unknownTokenHash, onSome: ({ token }) => token.secretHash })
        )
        if (Option.isNone(found) || !matches) return yield* Effect.fail(rejected)
        const caller: Caller = { platform: found.value.platform, token: found.value.token }
        return caller
      })

    const verify = (clientId: string, clientSecret: Redacted.Redacted<string>, now: number) =>
      Effect.gen(function* () {
        // The version is read before the lookup: a change that lands during it leaves the entry stale.
        const version = yield* changes.version
        if (Option.isNone(version)) return yield* lookUp(clientId, clientSecret)
        const cached = cache.find(clientId, clientSecret, version.value, now)
        if (cached !== undefined) return cached
        const caller = yield* lookUp(clientId, clientSecret)
        cache.remember(clientId, clientSecret, caller, version.value, now)
        return caller
      })

    const countedFor = (clientId: string, sourceAddress: string | undefined): ReadonlyArray<Counted> => {
      const counted: Array<Counted> = []
      if (Option.isSome(limits.failuresPerClientId) && countableClientId(clientId)) {
        counted.push({ key: `auth-failures:client-id:${clientId}`, limit: limits.failuresPerClientId.value })
      }
      if (Option.isSome(limits.failuresPerSourceAddress) && sourceAddress !== undefined && sourceAddress !== "") {
        counted.push({ key: `auth-failures:address:${sourceAddress}`, limit: limits.failuresPerSourceAddress.value })
      }
      return counted
    }

    const locked = (counted: ReadonlyArray<Counted>, now: number): RateLimited.RateLimited | undefined => {
      for (const { key, limit } of counted) {
        const remaining = lockouts.remainingMillis(key, now)
        if (remaining > 0) return RateLimited.RateLimited.of(limit, remaining)
      }
      return undefined
    }

    // Counts the failure against every limit at once; a refusal is remembered until it lifts.
    const failed = (counted: ReadonlyArray<Counted>) =>
      Effect.gen(function* () {
        const admissions = yield* Effect.forEach(counted, ({ key, limit }) => limiter.consume(key, limit), {
          concurrency: "unbounded"
        })
        const now = yield* Clock.currentTimeMillis
        let refusal: RateLimited.RateLimited | undefined
        admissions.forEach((admission, index) => {
          if (admission.admitted) return
          const { key, limit } = counted[index]!
          lockouts.lock(key, now + admission.retryAfterMillis)
          refusal ??= RateLimited.RateLimited.of(limit, admission.retryAfterMillis)
        })
        return yield* Effect.fail(refusal ?? rejected)
      })

    return {
      authenticate: (clientId, clientSecret, sourceAddress) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const counted = countedFor(clientId, sourceAddress)
          const lockout = locked(counted, now)
          if (lockout !== undefined) return yield* Effect.fail(lockout)
          const caller = yield* verify(clientId, clientSecret, now).pipe(
            Effect.catchTag("Unauthenticated", () => failed(counted))
          )
          if (Option.isSome(limits.requestsPerToken)) {
            const admission = requests.consume(caller.token.id, limits.requestsPerToken.value, now)
            if (!admission.admitted) {
              return yield* Effect.fail(
                RateLimited.RateLimited.of(limits.requestsPerToken.value, admission.retryAfterMillis)
              )
            }
          }
          return caller
        })
    }
  })
)
