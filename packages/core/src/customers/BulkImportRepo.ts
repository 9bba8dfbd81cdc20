import { Context, type DateTime, type Effect, type Option } from "effect"
import type { PlatformId, StoreFailure } from "../kernel/index.js"
import type { BulkImport, BulkImportError, BulkImportId, BulkImportRow, BulkImportStatus } from "./BulkImport.js"

/** What one batch changed: its counts, its failed rows, and the import's status after it. */
export interface BatchOutcome {
  readonly successful: number
  readonly failed: number
  readonly errors: ReadonlyArray<BulkImportError>
  readonly status: BulkImportStatus
  readonly now: DateTime.Utc
  /** Set when the batch was the last one. */
  readonly completedAt?: DateTime.Utc
}

/**
 * Storage of bulk customer imports, their rows in batches and their failed rows, always scoped to one platform.
 *
 * Concurrency: `startBatch` is a compare-and-set on the import's next batch, so of workers running one batch at once
 * (a lease that ran out) exactly one gets it; inside a unit of work, the loser waits for the winner's commit (a row
 * lock on SQL adapters) and then gets `None`. A batch's outcome is recorded in the unit of work that started it, so
 * a batch either counts whole, with its customers, or not at all.
 */
export class BulkImportRepo extends Context.Tag("@payrail/core/BulkImportRepo")<
  BulkImportRepo,
  {
    /** Stores the `index`-th batch of an import's rows (before or after the import itself, in one unit of work). */
    readonly insertBatch: (
      id: BulkImportId,
      index: number,
      rows: ReadonlyArray<BulkImportRow>
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly insert: (bulkImport: BulkImport) => Effect.Effect<void, StoreFailure.StoreFailure>
    readonly find: (
      platformId: PlatformId.PlatformId,
      id: BulkImportId
    ) => Effect.Effect<Option.Option<BulkImport>, StoreFailure.StoreFailure>
    /** The rows of the `index`-th batch, while it has not run (`None` once its outcome is recorded). */
    readonly findBatch: (
      id: BulkImportId,
      index: number
    ) => Effect.Effect<Option.Option<ReadonlyArray<BulkImportRow>>, StoreFailure.StoreFailure>
    /**
     * Takes the `index`-th batch: if it is still the import's next batch and the import is not finished, moves the
     * next batch on and the status to `PROCESSING`, and answers the import as it now is; `None` otherwise.
     */
    readonly startBatch: (
      platformId: PlatformId.PlatformId,
      id: BulkImportId,
      index: number,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<BulkImport>, StoreFailure.StoreFailure>
    /** Adds the outcome of the `index`-th batch to the counts, stores its failed rows and drops its rows. */
    readonly recordBatch: (
      platformId: PlatformId.PlatformId,
      id: BulkImportId,
      index: number,
      outcome: BatchOutcome
    ) => Effect.Effect<void, StoreFailure.StoreFailure>
    /** Up to `limit` failed rows of the import after line `afterLine` (0 for the first), by line. */
    readonly errors: (
      id: BulkImportId,
      afterLine: number,
      limit: number
    ) => Effect.Effect<ReadonlyArray<BulkImportError>, StoreFailure.StoreFailure>
  }
>() {}
