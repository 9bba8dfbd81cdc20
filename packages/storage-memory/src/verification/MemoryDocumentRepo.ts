import { Effect, Layer, Option } from "effect"
import { type Document, DocumentRepo, Page } from "@payrail/core"
import { insertNew, MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row extends DocumentRepo.StoredDocument {
  readonly platformId: string
}

const keyOf = (document: Document.Document): Page.Cursor => ({ createdAt: document.createdAt, id: document.id })

const stored = ({ platformId: _, ...record }: Row): DocumentRepo.StoredDocument => record

/**
 * `DocumentRepo` in memory, with the SQL adapter's rules: an id is inserted once (at version 1; a second insert
 * fails with `StoreFailure` and changes nothing), every read and write is scoped to the platform, `replace` is a
 * compare-and-set on the version, and `delete` checks the submission and deletes in one atomic step, so it either
 * deletes before a racing `markSubmitted` or is refused after it. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<DocumentRepo.DocumentRepo, never, MemoryState> = Layer.effect(
  DocumentRepo.DocumentRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("documents")

    const find = (platformId: string, id: string): Row | undefined => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }

    return DocumentRepo.DocumentRepo.of({
      insert: (platformId, document) =>
        insertNew(state, rows, "documents.insert", document.document.id, { ...document, platformId, version: 1 }),
      findById: (platformId, id) => Effect.sync(() => Option.map(Option.fromNullable(find(platformId, id)), stored)),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(rows.values())
            .filter(
              (row) =>
                row.platformId === platformId &&
                (filter.documentHolder === undefined || row.document.documentHolder === filter.documentHolder)
            )
            .map((row) => row.document)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((document) => Page.isAfter(keyOf(document), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      listByHolders: (platformId, holders) =>
        Effect.sync(() => {
          const wanted = new Set<string>(holders)
          return Array.from(rows.values())
            .filter((row) => row.platformId === platformId && wanted.has(row.document.documentHolder))
            .sort((a, b) => Page.compareNewestFirst(keyOf(b.document), keyOf(a.document)))
            .map(stored)
        }),
      replace: (platformId, next, expectedVersion) =>
        state.write((): readonly [boolean, () => void] => {
          const current = find(platformId, next.document.id)
          if (current === undefined || current.version !== expectedVersion) return [false, () => {}]
          return [true, setEntry(rows, next.document.id, { ...next, platformId, version: expectedVersion + 1 })]
        }),
      delete: (platformId, id) =>
        state.write((): readonly [DocumentRepo.DeleteOutcome, () => void] => {
          const current = find(platformId, id)
          if (current === undefined) return ["missing", () => {}]
          if (Option.isSome(current.submittedAt)) return ["submitted", () => {}]
          return ["deleted", removeEntry(rows, id)]
        }),
      markSubmitted: (platformId, ids, at) =>
        state.write((): readonly [void, () => void] => {
          const undos = ids.flatMap((id) => {
            const current = find(platformId, id)
            if (current === undefined) return []
            const submittedAt = Option.orElse(current.submittedAt, () => Option.some(at))
            return [setEntry(rows, id, { ...current, submittedAt, version: current.version + 1 })]
          })
          return [undefined, undoAll(undos)]
        })
    })
  })
)
