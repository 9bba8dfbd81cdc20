import { DateTime, Effect, Layer, Option } from "effect"
import { DelegatedKey, DelegatedKeyRepo } from "@payrail/core"
import { MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly key: DelegatedKey.DelegatedKey
}

const byCreation = (a: Row, b: Row) =>
  DateTime.Order(a.key.createdAt, b.key.createdAt) !== 0
    ? DateTime.Order(a.key.createdAt, b.key.createdAt)
    : a.key.id < b.key.id
      ? -1
      : 1

/**
 * `DelegatedKeyRepo` in memory, with the SQL adapter's rules: every read and revocation scoped to the platform;
 * `insert` checks that the wallet has no non-revoked key for the card and stores the key in one atomic step (so one
 * of concurrent inserts wins), and `revoke` checks and sets `REVOKED` in one; a unit of work that fails undoes them.
 */
export const layer: Layer.Layer<DelegatedKeyRepo.DelegatedKeyRepo, never, MemoryState> = Layer.effect(
  DelegatedKeyRepo.DelegatedKeyRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("delegatedKeys")

    const find = (platformId: string, id: string) =>
      Option.fromNullable(rows.get(id)).pipe(Option.filter((row) => row.platformId === platformId))
    const ofPlatform = (platformId: string) =>
      Array.from(rows.values())
        .filter((row) => row.platformId === platformId)
        .sort(byCreation)

    return {
      insert: (platformId, key) =>
        state.write((): readonly [boolean, () => void] => {
          const taken =
            rows.has(key.id) ||
            ofPlatform(platformId).some(
              (row) =>
                row.key.accountId === key.accountId &&
                (row.key.cardId ?? "") === (key.cardId ?? "") &&
                row.key.status !== "REVOKED"
            )
          return taken ? [false, () => {}] : [true, setEntry(rows, key.id, { platformId, key })]
        }),
      findById: (platformId, id) => Effect.sync(() => Option.map(find(platformId, id), (row) => row.key)),
      list: (platformId, filter) =>
        Effect.sync(() =>
          ofPlatform(platformId)
            .filter(
              (row) =>
                (filter.accountId === undefined || row.key.accountId === filter.accountId) &&
                (filter.cardId === undefined || row.key.cardId === filter.cardId)
            )
            .map((row) => row.key)
        ),
      listSigners: (platformId, accountId) =>
        Effect.sync(() =>
          ofPlatform(platformId)
            .filter((row) => row.key.accountId === accountId && row.key.status === "ACTIVE")
            .map((row) => row.key)
        ),
      revoke: (platformId, id, at) =>
        state.write((): readonly [Option.Option<DelegatedKey.DelegatedKey>, () => void] => {
          const found = find(platformId, id)
          if (Option.isNone(found) || found.value.key.status === "REVOKED") return [Option.none(), () => {}]
          const revoked = new DelegatedKey.DelegatedKey({ ...found.value.key, status: "REVOKED", updatedAt: at })
          return [Option.some(revoked), setEntry(rows, id, { platformId, key: revoked })]
        })
    }
  })
)
