import { Effect, Layer, Option } from "effect"
import { BulkImport, BulkImportRepo } from "@payrail/core"
import { insertNew, MemoryState, removeEntry, setEntry, undoAll } from "../kernel/MemoryState.js"

const batchKey = (id: string, index: number) => `${id}:${index}`

/**
 * `BulkImportRepo` in memory, with the SQL adapter's rules: an import and each batch are inserted once; reads are
 * scoped to the platform; `startBatch` moves the next batch on only from the expected one, in one atomic write;
 * failed rows are kept in line order (batches run in order).
 */
export const layer: Layer.Layer<BulkImportRepo.BulkImportRepo, never, MemoryState> = Layer.effect(
  BulkImportRepo.BulkImportRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const imports = state.table<BulkImport.BulkImport>("bulkImports")
    const batches = state.table<ReadonlyArray<BulkImport.BulkImportRow>>("bulkImportBatches")
    const failures = state.table<ReadonlyArray<BulkImport.BulkImportError>>("bulkImportErrors")
    const own = (platformId: string, id: string) => {
      const row = imports.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    return BulkImportRepo.BulkImportRepo.of({
      insertBatch: (id, index, rows) => insertNew(state, batches, "bulkImports.insertBatch", batchKey(id, index), rows),
      insert: (bulkImport) => insertNew(state, imports, "bulkImports.insert", bulkImport.id, bulkImport),
      find: (platformId, id) => Effect.sync(() => Option.fromNullable(own(platformId, id))),
      findBatch: (id, index) => Effect.sync(() => Option.fromNullable(batches.get(batchKey(id, index)))),
      startBatch: (platformId, id, index, now) =>
        state.write((): readonly [Option.Option<BulkImport.BulkImport>, () => void] => {
          const current = own(platformId, id)
          if (current === undefined || current.nextBatch !== index || BulkImport.isFinished(current.status)) {
            return [Option.none(), () => {}]
          }
          const next = new BulkImport.BulkImport({
            ...current,
            nextBatch: index + 1,
            status: "PROCESSING",
            updatedAt: now
          })
          return [Option.some(next), setEntry(imports, id, next)]
        }),
      recordBatch: (platformId, id, index, outcome) =>
        state.write((): readonly [void, () => void] => {
          const current = own(platformId, id)
          if (current === undefined) return [undefined, () => {}]
          const next = new BulkImport.BulkImport({
            ...current,
            processed: current.processed + outcome.successful + outcome.failed,
            successful: current.successful + outcome.successful,
            failed: current.failed + outcome.failed,
            status: outcome.status,
            updatedAt: outcome.now,
            ...(outcome.completedAt === undefined ? {} : { completedAt: outcome.completedAt })
          })
          return [
            undefined,
            undoAll([
              setEntry(imports, id, next),
              setEntry(failures, id, [...(failures.get(id) ?? []), ...outcome.errors]),
              removeEntry(batches, batchKey(id, index))
            ])
          ]
        }),
      errors: (id, afterLine, limit) =>
        Effect.sync(() => (failures.get(id) ?? []).filter((error) => error.details.line > afterLine).slice(0, limit))
    })
  })
)
