import { Context, Effect, Exit, FiberRef, Layer, Option } from "effect"
import { Errors } from "@payrail/core"

/**
 * The shared state of the memory adapter and its unit of work. Writes go through `write`, which records how to
 * undo them; `transaction` holds the single write lock for its whole duration and replays the undo log when the
 * effect fails or is interrupted, so a failed unit of work leaves nothing behind; a nested transaction is a
 * savepoint with an undo log of its own. Reads never wait: JavaScript
 * runs one fiber at a time, and every write applies in one synchronous step.
 */
export class MemoryState extends Context.Tag("@payrail/storage-memory/MemoryState")<
  MemoryState,
  {
    /** Runs `mutate` atomically. It returns the undo of what it did (called in reverse order on rollback). */
    readonly write: <A>(mutate: () => readonly [result: A, undo: () => void]) => Effect.Effect<A>
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /** Named tables, created on first use. */
    readonly table: <V>(name: string) => Map<string, V>
  }
>() {}

/** Sets `map[key] = value` and returns the undo that restores the previous entry (or its absence). */
export const setEntry = <K, V>(map: Map<K, V>, key: K, value: V): (() => void) => {
  const had = map.has(key)
  const previous = map.get(key)
  map.set(key, value)
  return () => {
    if (had) map.set(key, previous as V)
    else map.delete(key)
  }
}

/** Deletes `map[key]` and returns the undo that restores the entry (if there was one). */
export const removeEntry = <K, V>(map: Map<K, V>, key: K): (() => void) => {
  const had = map.has(key)
  const previous = map.get(key)
  map.delete(key)
  return () => {
    if (had) map.set(key, previous as V)
  }
}

/** Runs every undo in reverse order: the undo of several writes made in one step. */
export const undoAll =
  (undos: ReadonlyArray<() => void>): (() => void) =>
  () => {
    for (const undo of [...undos].reverse()) undo()
  }

/**
 * Stores `value` under `key` in `map` as one write of `state`, unless the key is taken: then `operation` fails with
 * `StoreFailure` ("duplicate id") and nothing changes, as a second `INSERT` of a primary key does in SQL.
 */
export const insertNew = <V>(
  state: Context.Tag.Service<MemoryState>,
  map: Map<string, V>,
  operation: string,
  key: string,
  value: V
): Effect.Effect<void, Errors.StoreFailure> =>
  Effect.flatten(
    state.write<Effect.Effect<void, Errors.StoreFailure>>(() =>
      map.has(key)
        ? [Effect.fail(Errors.StoreFailure.of(operation, "duplicate id")), () => {}]
        : [Effect.void, setEntry(map, key, value)]
    )
  )

export const layer: Layer.Layer<MemoryState> = Layer.scoped(
  MemoryState,
  Effect.gen(function* () {
    const lock = yield* Effect.makeSemaphore(1)
    const undoLog = yield* FiberRef.make<Option.Option<Array<() => void>>>(Option.none())
    const tables = new Map<string, Map<string, unknown>>()

    const write = <A>(mutate: () => readonly [A, () => void]): Effect.Effect<A> =>
      Effect.flatMap(FiberRef.get(undoLog), (log) => {
        if (Option.isSome(log)) {
          return Effect.sync(() => {
            const [result, undo] = mutate()
            log.value.push(undo)
            return result
          })
        }
        return lock.withPermits(1)(Effect.sync(() => mutate()[0]))
      })

    // Runs `effect` with a fresh undo log; on failure or interruption replays it backwards, on success hands it to
    // `onCommit` (the outer log for a savepoint, nothing at the top level).
    const withUndoLog = <A, E, R>(effect: Effect.Effect<A, E, R>, onCommit: (undos: Array<() => void>) => void) =>
      Effect.suspend(() => {
        const undos: Array<() => void> = []
        return Effect.locally(effect, undoLog, Option.some(undos)).pipe(
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) onCommit(undos)
              else for (const undo of undos.reverse()) undo()
            })
          )
        )
      })

    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(FiberRef.get(undoLog), (outer) =>
        Option.isSome(outer)
          ? withUndoLog(effect, (undos) => outer.value.push(...undos))
          : lock.withPermits(1)(withUndoLog(effect, () => {}))
      )

    const table = <V>(name: string): Map<string, V> => {
      let found = tables.get(name)
      if (found === undefined) {
        found = new Map()
        tables.set(name, found)
      }
      return found as Map<string, V>
    }

    return { write, transaction, table }
  })
)
