import { DateTime, Effect, Layer, Option, Stream } from "effect"
import { DocumentStore } from "@payrail/core"
import { MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

interface StoredFile {
  readonly platformId: string
  readonly chunks: ReadonlyArray<Uint8Array>
  readonly createdAt: DateTime.Utc
  readonly documentId: Option.Option<string>
}

// NUL never occurs in a platform id, so the pair maps to one string and back.
const keyOf = (platformId: string, documentId: string) => `${platformId}\u0000${documentId}`

/**
 * `DocumentStore` in memory. `stage` collects the chunks as they arrive (copies, so a reused buffer of the caller
 * never changes a stored file) and stores the staged file in one write when the stream ends; nothing is stored
 * when it fails. `attach` and `remove` join the caller's unit of work, so they roll back with it.
 */
export const layer: Layer.Layer<DocumentStore.DocumentStore, never, MemoryState> = Layer.effect(
  DocumentStore.DocumentStore,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const files = state.table<StoredFile>("documentFiles")
    // (platform, document) -> upload id of its attached file.
    const attached = state.table<string>("documentFileOf")

    const dropAttached = (platformId: string, documentId: string): (() => void) => {
      const key = keyOf(platformId, documentId)
      const uploadId = attached.get(key)
      if (uploadId === undefined) return () => {}
      return undoAll([removeEntry(files, uploadId), removeEntry(attached, key)])
    }

    return DocumentStore.DocumentStore.of({
      stage: (platformId, uploadId, content) =>
        Effect.gen(function* () {
          const chunks = yield* Stream.runCollect(Stream.map(content, (chunk) => Uint8Array.from(chunk)))
          const createdAt = yield* DateTime.now
          const file: StoredFile = { platformId, chunks: [...chunks], createdAt, documentId: Option.none() }
          yield* state.write(() => [undefined, setEntry(files, uploadId, file)])
          return file.chunks.reduce((sum, chunk) => sum + chunk.length, 0)
        }),
      attach: (platformId, uploadId, documentId) =>
        state.write((): readonly [boolean, () => void] => {
          const file = files.get(uploadId)
          if (file === undefined || file.platformId !== platformId || Option.isSome(file.documentId)) {
            return [false, () => {}]
          }
          const undoDrop = dropAttached(platformId, documentId)
          return [
            true,
            undoAll([
              undoDrop,
              setEntry(files, uploadId, { ...file, documentId: Option.some(documentId) }),
              setEntry(attached, keyOf(platformId, documentId), uploadId)
            ])
          ]
        }),
      discard: (platformId, uploadId) =>
        state.write((): readonly [void, () => void] => {
          const file = files.get(uploadId)
          if (file === undefined || file.platformId !== platformId || Option.isSome(file.documentId)) {
            return [undefined, () => {}]
          }
          return [undefined, removeEntry(files, uploadId)]
        }),
      read: (platformId, documentId) =>
        Effect.sync(() =>
          Option.flatMap(Option.fromNullable(attached.get(keyOf(platformId, documentId))), (uploadId) =>
            Option.map(Option.fromNullable(files.get(uploadId)), (file) => Stream.fromIterable(file.chunks))
          )
        ),
      remove: (platformId, documentId) => state.write(() => [undefined, dropAttached(platformId, documentId)]),
      purgeStaged: (before, limit) =>
        state.write((): readonly [number, () => void] => {
          const stale = [...files.entries()]
            .filter(([, file]) => Option.isNone(file.documentId) && DateTime.lessThan(file.createdAt, before))
            .slice(0, limit)
          return [stale.length, undoAll(stale.map(([uploadId]) => removeEntry(files, uploadId)))]
        })
    })
  })
)
