import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import type { Caller } from "./Caller.js"
import { Unauthenticated } from "./PlatformErrors.js"
import type { StoreFailure } from "../kernel/index.js"

/** Checks API credentials: one storage lookup (the token and its platform together) per call. */
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

/** `Authentication` on the `ApiTokenRepo`. */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const tokens = yield* ApiTokenRepo
    return {
      authenticate: (clientId, clientSecret) =>
        Effect.gen(function* () {
          const found =
            clientId.length > 0 && clientId.length <= 128 ? yield* tokens.findWithPlatform(clientId) : Option.none()
          const matches = yield* ApiTokenSecret.verify(
            clientSecret,
            Option.match(found, { onNone: () => unknownTokenHash, onSome: ({ token }) => token.secretHash })
          )
          if (Option.isNone(found) || !matches) return yield* Effect.fail(rejected)
          return { platform: found.value.platform, token: found.value.token }
        })
    }
  })
)
