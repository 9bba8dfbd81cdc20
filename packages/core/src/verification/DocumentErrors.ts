import { Schema } from "effect"
import { DocumentContentType, DocumentType } from "./Document.js"
import { DocumentRejectionReason } from "./DocumentReviewer.js"

/**
 * The uploaded file is none of the accepted types, judged by its first bytes (its magic number) alone: a renamed
 * text file is refused whatever its name or declared type. Code `INVALID_INPUT` (400) with
 * `details: {rule: "unsupported_file_type", acceptedContentTypes}`.
 */
export class DocumentFileUnsupported extends Schema.TaggedError<DocumentFileUnsupported>()("DocumentFileUnsupported", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({
    rule: Schema.Literal("unsupported_file_type"),
    acceptedContentTypes: Schema.Array(DocumentContentType)
  })
}) {
  static of(): DocumentFileUnsupported {
    return new DocumentFileUnsupported({
      reason: "The file must be a JPEG, PNG or PDF (its type is read from its content, not its name)",
      details: { rule: "unsupported_file_type", acceptedContentTypes: ["image/jpeg", "image/png", "application/pdf"] }
    })
  }
}

/**
 * The uploaded file is larger than the server accepts. Code `PAYLOAD_TOO_LARGE` (413) with
 * `details: {rule: "max_file_size", maxFileBytes}`. Nothing of it is kept.
 */
export class DocumentFileTooLarge extends Schema.TaggedError<DocumentFileTooLarge>()("DocumentFileTooLarge", {
  code: Schema.tag("PAYLOAD_TOO_LARGE"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("max_file_size"), maxFileBytes: Schema.Number })
}) {
  static of(maxFileBytes: number): DocumentFileTooLarge {
    return new DocumentFileTooLarge({
      reason: `The file exceeds ${maxFileBytes} bytes`,
      details: { rule: "max_file_size", maxFileBytes }
    })
  }
}

/**
 * The upload itself could not be read: a malformed or truncated multipart body, a missing or repeated `file` part,
 * a client that went away. Code `INVALID_INPUT` (400) with `details: {rule: "malformed_upload"}`. Nothing of it is
 * kept.
 */
export class DocumentUnreadable extends Schema.TaggedError<DocumentUnreadable>()("DocumentUnreadable", {
  code: Schema.tag("INVALID_INPUT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("malformed_upload") })
}) {
  static of(reason: string): DocumentUnreadable {
    return new DocumentUnreadable({ reason, details: { rule: "malformed_upload" } })
  }
}

/**
 * The `documentHolder` is neither a customer nor a beneficial owner of the caller's platform. Code `NOT_FOUND`
 * (404).
 */
export class DocumentHolderNotFound extends Schema.TaggedError<DocumentHolderNotFound>()("DocumentHolderNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ documentHolder: Schema.String })
}) {
  static of(documentHolder: string): DocumentHolderNotFound {
    return new DocumentHolderNotFound({ reason: "Document holder not found", details: { documentHolder } })
  }
}

/** No document with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()("DocumentNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ documentId: Schema.String })
}) {
  static of(documentId: string): DocumentNotFound {
    return new DocumentNotFound({ reason: "Document not found", details: { documentId } })
  }
}

/**
 * A verification submitted the document, so it can no longer be deleted (replace it instead). Code `CONFLICT`
 * (409) with `details: {rule: "document_submitted"}`.
 */
export class DocumentSubmitted extends Schema.TaggedError<DocumentSubmitted>()("DocumentSubmitted", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("document_submitted"), documentId: Schema.String })
}) {
  static of(documentId: string): DocumentSubmitted {
    return new DocumentSubmitted({
      reason: "A verification submitted this document; it cannot be deleted",
      details: { rule: "document_submitted", documentId }
    })
  }
}

/**
 * The KYC provider refused the document at upload (`DocumentReviewer`); `code` is the spec's rejection reason
 * (400), with `details: {rule: "document_rejected", documentType}`. Nothing of it is kept.
 */
export class DocumentRejected extends Schema.TaggedError<DocumentRejected>()("DocumentRejected", {
  code: DocumentRejectionReason,
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("document_rejected"), documentType: DocumentType })
}) {
  static of(code: DocumentRejectionReason, documentType: DocumentType): DocumentRejected {
    return new DocumentRejected({
      code,
      reason: rejectionReasons[code],
      details: { rule: "document_rejected", documentType }
    })
  }
}

const rejectionReasons: Record<DocumentRejectionReason, string> = {
  LOW_QUALITY: "The document's quality is too low to read",
  DATA_MISMATCH: "The document's details differ from the information provided",
  EXPIRED: "The document has expired",
  SUSPECTED_FRAUD: "The document is suspected to be fraudulent",
  UNSUITABLE_DOCUMENT: "The document is not suitable for this verification",
  INCOMPLETE: "The document is incomplete (missing pages or sides)"
}
