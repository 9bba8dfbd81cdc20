import { Effect, Layer, Option } from "effect"
import { type ApiToken, ApiTokenRepo } from "@payrail/core"
import { MemoryState, removeEntry, setEntry } from "../kernel/MemoryState.js"
import { CredentialVersion } from "./MemoryCredentialChanges.js"
import { platformsOf } from "../kernel/MemoryPlatformTable.js"

/**
 * `ApiTokenRepo` in memory, keyed by client id. `findWithPlatform` reads the token and its platform in one
 * synchronous step, so both are as of one moment; a deletion bumps the credential version in the same step.
 */
export const layer: Layer.Layer<ApiTokenRepo.ApiTokenRepo, never, MemoryState | CredentialVersion> = Layer.effect(
  ApiTokenRepo.ApiTokenRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const tokens = state.table<ApiToken.ApiToken>("apiTokens")
    const platforms = platformsOf(state)
    const version = yield* CredentialVersion
    return {
      insert: (token) => state.write(() => [undefined, setEntry(tokens, token.clientId, token)]),
      findByClientId: (clientId) => Effect.sync(() => Option.fromNullable(tokens.get(clientId))),
      findWithPlatform: (clientId) =>
        Effect.sync(() =>
          Option.fromNullable(tokens.get(clientId)).pipe(
            Option.flatMap((token) =>
              Option.map(Option.fromNullable(platforms.get(token.platformId)), (platform) => ({ token, platform }))
            )
          )
        ),
      deleteByClientId: (clientId) =>
        state.write(() => {
          const token = tokens.get(clientId)
          if (token === undefined) return [Option.none(), () => {}]
          version.bump()
          return [Option.some(token), removeEntry(tokens, clientId)]
        }),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(
            Array.from(tokens.values()).find((token) => token.id === id && token.platformId === platformId)
          )
        ),
      deleteById: (platformId, id) =>
        state.write(() => {
          const token = Array.from(tokens.values()).find((each) => each.id === id && each.platformId === platformId)
          if (token === undefined) return [Option.none(), () => {}]
          version.bump()
          return [Option.some(token), removeEntry(tokens, token.clientId)]
        }),
      listByPlatform: (platformId) =>
        Effect.sync(() => Array.from(tokens.values()).filter((token) => token.platformId === platformId))
    }
  })
)
