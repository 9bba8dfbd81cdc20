import { DateTime, Effect, Layer, Option } from "effect"
import { SignedRequest, SignedRequestRepo } from "@payrail/core"
import { insertNew, MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

/** A row of the `signedRequests` table (also consumed by `MemoryAuthSessionRepo.revokeConsuming`). */
export interface Row {
  readonly platformId: string
  readonly request: SignedRequest.SignedRequest
}

/** The table's row for `id` when it belongs to the platform. */
export const findRow = (rows: Map<string, Row>, platformId: string, id: string): Option.Option<Row> =>
  Option.fromNullable(rows.get(id)).pipe(Option.filter((row) => row.platformId === platformId))

/** The row with the request consumed at `at`. */
export const consumedRow = (row: Row, at: DateTime.Utc): Row => ({
  platformId: row.platformId,
  request: new SignedRequest.SignedRequest({ ...row.request, consumedAt: at })
})

/**
 * `SignedRequestRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing), every read and `consume` is scoped to the platform, and `consume` checks and
 * sets `consumedAt` in one atomic step, so exactly one consumer wins; a unit of work that fails undoes it.
 * `purgeExpired` deletes the requests that expired earliest first, across platforms.
 */
export const layer: Layer.Layer<SignedRequestRepo.SignedRequestRepo, never, MemoryState> = Layer.effect(
  SignedRequestRepo.SignedRequestRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("signedRequests")

    const find = (platformId: string, id: string) => findRow(rows, platformId, id)

    return {
      insert: (platformId, request) =>
        insertNew(state, rows, "signedRequests.insert", request.id, { platformId, request }),
      findById: (platformId, id) => Effect.sync(() => Option.map(find(platformId, id), (row) => row.request)),
      consume: (platformId, id, at) =>
        state.write((): readonly [boolean, () => void] => {
          const found = find(platformId, id)
          if (Option.isNone(found) || found.value.request.consumedAt !== undefined) return [false, () => {}]
          return [true, setEntry(rows, id, consumedRow(found.value, at))]
        }),
      purgeExpired: (before, limit) =>
        state.write((): readonly [number, () => void] => {
          const expired = Array.from(rows.values())
            .filter((row) => DateTime.lessThan(row.request.expiresAt, before))
            .sort((a, b) => a.request.expiresAt.epochMillis - b.request.expiresAt.epochMillis)
            .slice(0, Math.max(0, limit))
          return [expired.length, undoAll(expired.map((row) => removeEntry(rows, row.request.id)))]
        })
    }
  })
)
