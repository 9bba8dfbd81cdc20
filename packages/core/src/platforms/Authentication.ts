import { Clock, Context, Duration, Effect, Layer, Option, type Redacted } from "effect"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import type { Caller } from "./Caller.js"
import * as CredentialCache from "./CredentialCache.js"
import { CredentialChanges } from "./CredentialChanges.js"
import { Unauthenticated } from "./PlatformErrors.js"
import type { StoreFailure } from "../kernel/index.js"

/**
 * Checks API credentials: one storage lookup (the token and its platform together), or none when the same
 * credentials were verified in the last few seconds and no token or platform has changed since (see
 * `CredentialCache`; a revocation anywhere makes every cached credential stale at once).
 */
export class Authentication extends Context.Tag("@payrail/core/Authentication")<
  Authentication,
  {
    /**
     * The caller whose token has this client id and secret. Every failure is the same `UNAUTHORIZED`, and an
     * unknown client id costs the same hashing and comparison as a wrong secret, so responses reveal nothing.
     */
    readonly authenticate: (
      clientId: string,
      clientSecret: Redacted.Redacted<string>
    ) => Effect.Effect<Caller, Unauthenticated | StoreFailure.StoreFailure>
  }
>() {}

const rejected = Unauthenticated.of()
const unknownTokenHash = "0".repeat(64)

/** `Authentication` on the `ApiTokenRepo`, caching verified credentials while `CredentialChanges` can see changes. */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const tokens = yield* ApiTokenRepo
    const changes = yield* CredentialChanges
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

    return {
      authenticate: (clientId, clientSecret) =>
        Effect.gen(function* () {
          // The version is read before the lookup: a change that lands during it leaves the entry stale.
          const version = yield* changes.version
          if (Option.isNone(version)) return yield* lookUp(clientId, clientSecret)
          const now = yield* Clock.currentTimeMillis
          const cached = cache.find(clientId, clientSecret, version.value, now)
          if (cached !== undefined) return cached
          const caller = yield* lookUp(clientId, clientSecret)
          cache.remember(clientId, clientSecret, caller, version.value, now)
          return caller
        })
    }
  })
)
