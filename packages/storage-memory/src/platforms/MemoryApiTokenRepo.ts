import { Effect, Layer, Option } from "effect"
import { type ApiToken, ApiTokenRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

/** `ApiTokenRepo` in memory, keyed by client id. */
export const layer = Layer.effect(
  ApiTokenRepo.ApiTokenRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const tokens = state.table<ApiToken.ApiToken>("apiTokens")
    return {
      insert: (token) => state.write(() => [undefined, setEntry(tokens, token.clientId, token)]),
      findByClientId: (clientId) => Effect.sync(() => Option.fromNullable(tokens.get(clientId))),
      listByPlatform: (platformId) =>
        Effect.sync(() => Array.from(tokens.values()).filter((token) => token.platformId === platformId))
    }
  })
)
