import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Multipart from "@effect/platform/Multipart"
import * as OpenApi from "@effect/platform/OpenApi"
import { Option, Schema } from "effect"
import { BulkImport, BulkImportErrors, BulkImportLimits } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport

/**
 * 400 `INVALID_INPUT` with `details.rule`: `csv_header` (with `missingColumns`, `unknownColumns`,
 * `duplicateColumns`), `malformed_csv` (with `line`) or `malformed_upload`. Nothing of the file is kept.
 */
export const BulkImportFileInvalidBody = wire(
  BulkImportErrors.BulkImportFileInvalid,
  400,
  "The file cannot be imported: its header, its CSV or the multipart body is invalid"
)
/** 413 `PAYLOAD_TOO_LARGE` with `details: {rule: "max_file_size", maxFileBytes}`. */
export const BulkImportFileTooLargeBody = wire(
  BulkImportErrors.BulkImportFileTooLarge,
  413,
  "The file is larger than the server accepts for a bulk import"
)
/** 404 `BULK_UPLOAD_JOB_NOT_FOUND`. */
export const BulkImportNotFoundBody = wire(
  BulkImportErrors.BulkImportNotFound,
  404,
  "No such bulk import job on this platform"
)

/** The multipart form of `POST /customers/bulk/csv`, streamed: one `file` part, the CSV file. */
export const UploadForm = HttpApiSchema.MultipartStream(Schema.Struct({ file: Multipart.SingleFileSchema }), {
  maxParts: Option.some(4),
  maxFieldSize: 4096
})

const JobPath = reportFieldErrors(Schema.Struct({ jobId: BulkImport.BulkImportId }))

/** Query of `GET /customers/bulk/jobs/{jobId}`: which page of the failed rows to show. */
export const JobParams = reportFieldErrors(
  Schema.Struct({
    errorsLimit: Schema.optional(
      ListQuery.Limit.annotations({ description: "Failed rows to show, 1 to 100 (default 100)" })
    ),
    errorsCursor: Schema.optional(
      Schema.String.annotations({ description: "The `errorsNextCursor` of the previous answer" })
    )
  })
)

const Accepted = BulkImport.BulkImportAccepted.annotations(
  HttpApiSchema.annotations<BulkImport.BulkImportAccepted>({ status: 202 })
)

const maxMiB = BulkImportLimits.defaultMaxFileBytes / (1024 * 1024)

const uploadRules =
  "Multipart form data with one `file` part: a UTF-8 CSV file whose first line names its columns " +
  "(umaAddress, platformCustomerId, customerType, fullName, birthDate, email, businessLegalName, " +
  "businessRegistrationNumber, businessTaxId, addressLine1, addressLine2, city, state, postalCode, country, " +
  "platformAccountId, description; umaAddress, platformCustomerId, customerType, addressLine1, city, state, " +
  "postalCode and country required). The file is read as it arrives and never held whole; a header with unknown, " +
  "repeated or missing columns is 400 `INVALID_INPUT` naming them (`details.rule: csv_header`), unreadable CSV " +
  `is 400 with \`details.rule: malformed_csv\` and its line, and a body over the server's limit (${maxMiB} MiB by ` +
  "default, `PAYRAIL_BULK_IMPORT_MAX_BYTES`) is 413; nothing of a refused file is kept. Rows are validated as " +
  "`POST /customers` validates its body when the job imports them, in batches: follow it with " +
  "`GET /customers/bulk/jobs/{jobId}`."

/** Bulk customer import: upload a CSV file as a job, then follow its progress and its failed rows. */
export class BulkImportsApi extends HttpApiGroup.make("bulkImports")
  .add(
    HttpApiEndpoint.post("uploadCsv", "/customers/bulk/csv")
      .setPayload(UploadForm)
      .addSuccess(Accepted)
      .addError(BulkImportFileInvalidBody)
      .addError(BulkImportFileTooLargeBody)
      .annotate(OpenApi.Summary, "Upload customers via CSV file")
      .annotate(OpenApi.Description, uploadRules)
  )
  .add(
    HttpApiEndpoint.get("getJob", "/customers/bulk/jobs/:jobId")
      .setPath(JobPath)
      .setUrlParams(JobParams)
      .addSuccess(BulkImport.BulkImportView)
      .addError(BulkImportNotFoundBody)
      .annotate(OpenApi.Summary, "Get bulk import job status")
      .annotate(
        OpenApi.Description,
        "The job's status (PENDING, PROCESSING, COMPLETED, FAILED), its progress counts, and one page of its " +
          "failed rows by line (`errorsLimit`, default and at most 100; `errorsNextCursor` continues while " +
          "`errorsHasMore`; `progress.failed` counts them all). Each failed row has its `correlationId` (its " +
          "platformCustomerId, or its line), the `code` and `reason` `POST /customers` would answer, and " +
          "`details.line` and `details.field` (a column name)."
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Bulk customer import")
  .annotate(OpenApi.Description, "Create many customers from one CSV file, as an asynchronous job.") {}
