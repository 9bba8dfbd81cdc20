import { Schema } from "effect"
import { FieldError, PlatformId, ResourceId, SchemaClass } from "../kernel/index.js"

/** `Job:<uuid>`: a bulk customer import, named as the reference API names it. */
export const BulkImportId = ResourceId.make("Job").annotations({
  identifier: "BulkImportJobId",
  description: "a bulk import job id of the form Job:<uuid>"
})
export type BulkImportId = typeof BulkImportId.Type

/**
 * Where an import stands: `PENDING` until its first batch runs, `PROCESSING` while batches run, then `COMPLETED`
 * (every row processed, at least one customer created, or the file had no rows) or `FAILED` (every row failed).
 */
export const BulkImportStatus = Schema.Literal("PENDING", "PROCESSING", "COMPLETED", "FAILED")
export type BulkImportStatus = typeof BulkImportStatus.Type

/** Whether an import in `status` is over: nothing about it changes any more. */
export const isFinished = (status: BulkImportStatus): boolean => status === "COMPLETED" || status === "FAILED"

/** The counts of an import: rows in the file, rows processed so far, and how many of those succeeded or failed. */
export const BulkImportProgress = Schema.Struct({
  total: Schema.Int,
  processed: Schema.Int,
  successful: Schema.Int,
  failed: Schema.Int
}).annotations({ identifier: "BulkCustomerImportProgress" })
export type BulkImportProgress = typeof BulkImportProgress.Type

/**
 * One row that created no customer: `correlationId` is the row's `platformCustomerId` (its line number when it has
 * none), `code` and `reason` as `POST /customers` would answer them (`INVALID_INPUT`, `CONFLICT`,
 * `UMA_ADDRESS_EXISTS`), with `reason` again as `message` (the reference's entry is its error body, which names it
 * so; entries stored before it have none), and `details` the row's `line` in the file, the first failing `field` (a
 * column name), and for `INVALID_INPUT` every failing column in `errors`.
 */
export class BulkImportError extends SchemaClass.Class<BulkImportError>("BulkCustomerImportErrorEntry")({
  correlationId: Schema.String,
  code: Schema.String,
  reason: Schema.String,
  message: Schema.optional(Schema.String),
  details: Schema.Struct({
    line: Schema.Int,
    field: Schema.String,
    rule: Schema.optional(Schema.String),
    errors: Schema.optional(Schema.Array(FieldError.FieldError))
  })
}) {}

/** A bulk import as stored: its counts, the file's header, and how far its batches went. */
export class BulkImport extends SchemaClass.Class<BulkImport>("BulkImport")({
  id: BulkImportId,
  platformId: PlatformId.PlatformId,
  status: BulkImportStatus,
  /** The header of the file: the column of each cell of its rows. */
  columns: Schema.Array(Schema.String),
  total: Schema.Int,
  processed: Schema.Int,
  successful: Schema.Int,
  failed: Schema.Int,
  /** How many batches of rows the file was stored in, and the next one to run (`batchCount` once all ran). */
  batchCount: Schema.Int,
  nextBatch: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  completedAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** One stored row of a file: the line it starts on and its cells. */
export const BulkImportRow = Schema.Struct({ line: Schema.Int, cells: Schema.Array(Schema.String) })
export type BulkImportRow = typeof BulkImportRow.Type

/** `202` of `POST /customers/bulk/csv`: the new import's id and status. */
export class BulkImportAccepted extends SchemaClass.Class<BulkImportAccepted>("BulkCustomerImportJobAccepted")({
  jobId: BulkImportId,
  status: Schema.Literal("PENDING", "PROCESSING")
}) {}

/**
 * An import as `GET /customers/bulk/jobs/{jobId}` shows it: status, progress, one page of the failed rows (by line;
 * `errorsNextCursor` continues), and when it finished.
 */
export class BulkImportView extends SchemaClass.Class<BulkImportView>("BulkCustomerImportJob")({
  jobId: BulkImportId,
  status: BulkImportStatus,
  progress: BulkImportProgress,
  errors: Schema.Array(BulkImportError),
  /** Whether failed rows follow this page of `errors` (`progress.failed` counts them all). */
  errorsHasMore: Schema.Boolean,
  /** The `errorsCursor` of the next page of errors, when `errorsHasMore`. */
  errorsNextCursor: Schema.optional(Schema.String),
  completedAt: Schema.optional(Schema.DateTimeUtc)
}) {}

/** The webhook types of an import's end: `data` is the import as `GET` shows it, with its first errors. */
export const BulkImportEventType = Schema.Literal("BULK_UPLOAD.COMPLETED", "BULK_UPLOAD.FAILED")
export type BulkImportEventType = typeof BulkImportEventType.Type
