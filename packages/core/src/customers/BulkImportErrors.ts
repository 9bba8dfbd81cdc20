import { Schema } from "effect"

/**
 * No bulk import with this id on the caller's platform (imports of other platforms are indistinguishable). Code
 * `BULK_UPLOAD_JOB_NOT_FOUND` (404).
 */
export class BulkImportNotFound extends Schema.TaggedError<BulkImportNotFound>()("BulkImportNotFound", {
  code: Schema.tag("BULK_UPLOAD_JOB_NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ jobId: Schema.String })
}) {
  static of(jobId: string): BulkImportNotFound {
    return new BulkImportNotFound({ reason: "Bulk import job not found", details: { jobId } })
  }
}

/**
 * The uploaded file cannot be imported at all, so nothing of it is kept. Code `INVALID_INPUT` (400) with
 * `details.rule`: `csv_header` (the first line names unknown or repeated columns, or lacks required ones, each
 * listed), `malformed_csv` (not UTF-8, a quote left open, a record too long: `details.line` says where) or
 * `malformed_upload` (the multipart body is malformed or lacks its `file` part).
 */
export class BulkImportFileInvalid extends Schema.TaggedError<BulkImportFileInvalid>()("BulkImportFileInvalid", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("csv_header", "malformed_csv", "malformed_upload"),
    line: Schema.optional(Schema.Int),
    missingColumns: Schema.optional(Schema.Array(Schema.String)),
    unknownColumns: Schema.optional(Schema.Array(Schema.String)),
    duplicateColumns: Schema.optional(Schema.Array(Schema.String))
  })
}) {
  /** The header's problems, each column named. */
  static header(problems: {
    readonly missingColumns: ReadonlyArray<string>
    readonly unknownColumns: ReadonlyArray<string>
    readonly duplicateColumns: ReadonlyArray<string>
  }): BulkImportFileInvalid {
    const named = [
      ...(problems.missingColumns.length > 0 ? [`missing ${problems.missingColumns.join(", ")}`] : []),
      ...(problems.unknownColumns.length > 0 ? [`unknown ${problems.unknownColumns.join(", ")}`] : []),
      ...(problems.duplicateColumns.length > 0 ? [`repeated ${problems.duplicateColumns.join(", ")}`] : [])
    ]
    return new BulkImportFileInvalid({
      reason: `The CSV header has invalid columns: ${named.join("; ")}`,
      details: {
        rule: "csv_header",
        missingColumns: problems.missingColumns,
        unknownColumns: problems.unknownColumns,
        duplicateColumns: problems.duplicateColumns
      }
    })
  }

  /** The file is not readable CSV; `problem` starts with `line <n>:`, which becomes `details.line`. */
  static malformed(problem: string): BulkImportFileInvalid {
    const line = /^line (\d+):/.exec(problem)?.[1]
    return new BulkImportFileInvalid({
      reason: `The file is not valid CSV: ${problem}`,
      details: { rule: "malformed_csv", ...(line === undefined ? {} : { line: Number(line) }) }
    })
  }

  /** The file has no header line. */
  static empty(): BulkImportFileInvalid {
    return new BulkImportFileInvalid({
      reason: "The file is empty: its first line must be the CSV header",
      details: { rule: "csv_header", line: 1 }
    })
  }

  /** The multipart body is malformed, truncated, or lacks its `file` part. */
  static unreadable(reason: string): BulkImportFileInvalid {
    return new BulkImportFileInvalid({ reason, details: { rule: "malformed_upload" } })
  }
}

/**
 * The upload is larger than the server accepts for a bulk import. Code `PAYLOAD_TOO_LARGE` (413) with
 * `details: {rule: "max_file_size", maxFileBytes}`. Nothing of it is kept.
 */
export class BulkImportFileTooLarge extends Schema.TaggedError<BulkImportFileTooLarge>()("BulkImportFileTooLarge", {
  code: Schema.tag("PAYLOAD_TOO_LARGE"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("max_file_size"), maxFileBytes: Schema.Int })
}) {
  static of(maxFileBytes: number): BulkImportFileTooLarge {
    return new BulkImportFileTooLarge({
      reason: `The file is larger than ${maxFileBytes} bytes`,
      details: { rule: "max_file_size", maxFileBytes }
    })
  }
}
