import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as ApiTokenSecret from "./ApiTokenSecret.js"
import { ApiTokenRepo } from "./ApiTokenRepo.js"
import type { Caller } from "./Caller.js"
import { Unauthenticated } from "./PlatformErrors.js"
import { PlatformRepo } from "./PlatformRepo.js"
import type { StoreFailure } from "../kernel/index.js"

/** Checks API credentials. */
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

export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const tokens = yield* ApiTokenRepo
    const platforms = yield* PlatformRepo
    return {
      authenticate: (clientId, clientSecret) =>
        Effect.gen(function* () {
          const token = clientId.length > 0 && clientId.length <= 128 ? yield* tokens.findByClientId(clientId) : Option.none()
          const matches = yield* ApiTokenSecret.verify(
            clientSecret,
            Option.match(token, { onNone: () => unknownTokenHash, onSome: (found) => found.secretHash })
          )
          if (Option.isNone(token) || !matches) return yield* Effect.fail(rejected)
          const platform = yield* platforms.findById(token.value.platformId)
          if (Option.isNone(platform)) return yield* Effect.fail(rejected)
          return { platform: platform.value, token: token.value }
        })
    }
  })
)
