import { Context } from "effect"

/** The default largest bulk import upload, in bytes (64 MiB: about 400,000 rows of typical customers). */
export const defaultMaxFileBytes = 64 * 1024 * 1024

/** The default number of rows stored together and imported in one unit of work. */
export const defaultBatchRows = 200

/**
 * How large a bulk import file may be, and how many rows make a batch. A reference with defaults, so embedders need
 * not provide it; the reference server sets `maxFileBytes` from `PAYRAIL_BULK_IMPORT_MAX_BYTES`. The size limit is
 * enforced while the file streams in: no more than it (plus one chunk) is read before the upload is refused.
 */
export class BulkImportLimits extends Context.Reference<BulkImportLimits>()("@payrail/core/BulkImportLimits", {
  defaultValue: (): { readonly maxFileBytes: number; readonly batchRows: number } => ({
    maxFileBytes: defaultMaxFileBytes,
    batchRows: defaultBatchRows
  })
}) {}
