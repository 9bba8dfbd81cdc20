import { DateTime, Effect, Layer, Option } from "effect"
import { Errors, type UmaLookup, UmaLookupRepo } from "@payrail/core"
import { MemoryState, removeEntry, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly lookup: UmaLookup.UmaLookup
}

/**
 * `UmaLookupRepo` in memory, with the SQL adapter's rules: an id is inserted once (a second insert fails with
 * `StoreFailure` and changes nothing; a failed unit of work undoes an insert), and every read is scoped to the
 * platform.
 */
export const layer: Layer.Layer<UmaLookupRepo.UmaLookupRepo, never, MemoryState> = Layer.effect(
  UmaLookupRepo.UmaLookupRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("umaLookups")
    return {
      insert: (platformId, lookup) =>
        Effect.flatten(
          state.write<Effect.Effect<void, Errors.StoreFailure>>(() =>
            rows.has(lookup.id)
              ? [Effect.fail(Errors.StoreFailure.of("umaLookups.insert", "duplicate id")), () => {}]
              : [Effect.void, setEntry(rows, lookup.id, { platformId, lookup })]
          )
        ),
      findById: (platformId, id) =>
        Effect.sync(() =>
          Option.fromNullable(rows.get(id)).pipe(
            Option.filter((row) => row.platformId === platformId),
            Option.map((row) => row.lookup)
          )
        ),
      purgeExpired: (before, limit) =>
        state.write((): readonly [number, () => void] => {
          const expired = Array.from(rows.values())
            .filter((row) => DateTime.lessThan(row.lookup.expiresAt, before))
            .sort((a, b) => DateTime.Order(a.lookup.expiresAt, b.lookup.expiresAt))
            .slice(0, Math.max(0, limit))
          const undos = expired.map((row) => removeEntry(rows, row.lookup.id))
          return [expired.length, () => undos.reverse().forEach((undo) => undo())]
        })
    }
  })
)
