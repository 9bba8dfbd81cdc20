import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Multipart from "@effect/platform/Multipart"
import * as OpenApi from "@effect/platform/OpenApi"
import { Option, Schema } from "effect"
import { Document, DocumentErrors, DocumentRequest } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { CustomersApi } from "../customers/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 400 `INVALID_INPUT` with `details.rule: "unsupported_file_type"`: the file is not a JPEG, PNG or PDF. */
export const DocumentFileUnsupportedBody = wire(
  DocumentErrors.DocumentFileUnsupported,
  400,
  "The file is not a JPEG, PNG or PDF (judged by its content)"
)
/** 400 `INVALID_INPUT` with `details.rule: "malformed_upload"`: the multipart body is malformed or truncated. */
export const DocumentUnreadableBody = wire(
  DocumentErrors.DocumentUnreadable,
  400,
  "The multipart body is malformed, truncated or lacks its single `file` part"
)
/** 413 `PAYLOAD_TOO_LARGE` with `details: {rule: "max_file_size", maxFileBytes}`. */
export const DocumentFileTooLargeBody = wire(DocumentErrors.DocumentFileTooLarge, 413, "The file is too large")
/** 400 with a rejection reason as `code` (`LOW_QUALITY`, `EXPIRED`...): the KYC provider refused the document. */
export const DocumentRejectedBody = wire(DocumentErrors.DocumentRejected, 400, "The KYC provider refused the document")
/** 404 `NOT_FOUND`: the holder is not a customer or beneficial owner of the platform. */
export const DocumentHolderNotFoundBody = wire(
  DocumentErrors.DocumentHolderNotFound,
  404,
  "No such customer or beneficial owner on this platform"
)
/** 404 `NOT_FOUND`: no such document on this platform. */
export const DocumentNotFoundBody = wire(DocumentErrors.DocumentNotFound, 404, "No such document on this platform")
/** 409 `CONFLICT` with `details.rule: "document_submitted"`. */
export const DocumentSubmittedBody = wire(
  DocumentErrors.DocumentSubmitted,
  409,
  "A verification submitted the document; it cannot be deleted"
)

// The most parts and the largest field a document form may have: six fields and the file.
const limits = { maxParts: Option.some(16), maxFieldSize: 4096 }

/** The multipart form of `POST /documents`, streamed: the fields, then the `file` part (JPEG, PNG or PDF). */
export const UploadForm = HttpApiSchema.MultipartStream(
  Schema.Struct({ ...DocumentRequest.DocumentFields.fields, file: Multipart.SingleFileSchema }),
  limits
)
/** The multipart form of `PUT /documents/{documentId}`: that of an upload without `documentHolder`. */
export const ReplaceForm = HttpApiSchema.MultipartStream(
  Schema.Struct({ ...DocumentRequest.ReplaceDocumentFields.fields, file: Multipart.SingleFileSchema }),
  limits
)

const DocumentPath = reportFieldErrors(Schema.Struct({ documentId: Document.DocumentId }))

/** Query of `GET /documents`: the holder, if any, and paging. */
export const DocumentListParams = reportFieldErrors(
  Schema.Struct({ documentHolder: Schema.optional(Document.DocumentHolderId), ...pageParams })
)

/** A page of documents. */
export const DocumentList = ListResponse(Document.Document, "DocumentList")

const CreatedDocument = Document.Document.annotations(HttpApiSchema.annotations<Document.Document>({ status: 201 }))

const uploadRules =
  "Multipart form data, streamed: the fields first, then one `file` part, last. The file's type is read from its " +
  "first bytes (JPEG, PNG or PDF; anything else is 400 `INVALID_INPUT` with `details.rule: unsupported_file_type`); " +
  "a file over the server's limit (10 MiB by default, `PAYRAIL_DOCUMENT_MAX_BYTES`) is 413; a malformed or " +
  "truncated body is 400 with `details.rule: malformed_upload`. Nothing of a refused upload is kept."

/** Verification documents of customers and beneficial owners: upload, list, read, replace, delete. */
export class DocumentsApi extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.post("upload", "/documents")
      .setPayload(UploadForm)
      .addSuccess(CreatedDocument)
      .addError(DocumentFileUnsupportedBody)
      .addError(DocumentUnreadableBody)
      .addError(DocumentFileTooLargeBody)
      .addError(DocumentHolderNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .addError(DocumentRejectedBody)
      .annotate(OpenApi.Summary, "Upload a document")
      .annotate(OpenApi.Description, uploadRules)
  )
  .add(
    HttpApiEndpoint.get("list", "/documents")
      .setUrlParams(DocumentListParams)
      .addSuccess(DocumentList)
      .annotate(OpenApi.Summary, "List documents, of one holder when given, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/documents/:documentId")
      .setPath(DocumentPath)
      .addSuccess(Document.Document)
      .addError(DocumentNotFoundBody)
      .annotate(OpenApi.Summary, "Get a document")
  )
  .add(
    HttpApiEndpoint.put("replace", "/documents/:documentId")
      .setPath(DocumentPath)
      .setPayload(ReplaceForm)
      .addSuccess(Document.Document)
      .addError(DocumentNotFoundBody)
      .addError(DocumentFileUnsupportedBody)
      .addError(DocumentUnreadableBody)
      .addError(DocumentFileTooLargeBody)
      .addError(DocumentHolderNotFoundBody)
      .addError(CustomersApi.CustomerDeletedBody)
      .addError(DocumentRejectedBody)
      .annotate(OpenApi.Summary, "Replace a document's fields and file (its holder stays)")
      .annotate(OpenApi.Description, `${uploadRules} A replaced document counts as not yet submitted.`)
  )
  .add(
    HttpApiEndpoint.del("delete", "/documents/:documentId")
      .setPath(DocumentPath)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(DocumentNotFoundBody)
      .addError(DocumentSubmittedBody)
      .annotate(OpenApi.Summary, "Delete a document (409 once a verification submitted it)")
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Documents")
  .annotate(OpenApi.Description, "Verification documents of customers and beneficial owners, uploaded as multipart.") {}
