import { Effect, Layer } from "effect"
import { type AuthMethod, AuthMethodRepo } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly method: AuthMethod.AuthMethod
}

/**
 * `AuthMethodRepo` in memory, scoped per platform; an account's credentials come back oldest first by
 * `(createdAt, id)`, as in the SQL adapter. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<AuthMethodRepo.AuthMethodRepo, never, MemoryState> = Layer.effect(
  AuthMethodRepo.AuthMethodRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("authMethods")
    return {
      insert: (platformId, method) => state.write(() => [undefined, setEntry(rows, method.id, { platformId, method })]),
      insertAll: (platformId, methods) =>
        state.write(() => [
          undefined,
          undoAll(methods.map((method) => setEntry(rows, method.id, { platformId, method })))
        ]),
      listByAccount: (platformId, accountId) =>
        Effect.sync(() =>
          Array.from(rows.values())
            .filter((row) => row.platformId === platformId && row.method.accountId === accountId)
            .map((row) => row.method)
            .sort((a, b) => a.createdAt.epochMillis - b.createdAt.epochMillis || (a.id < b.id ? -1 : 1))
        )
    }
  })
)
