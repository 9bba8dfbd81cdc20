import { Schema, type Stream } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"
import { DocumentHolderId, DocumentSide, DocumentType } from "./Document.js"
import type { DocumentUnreadable } from "./DocumentErrors.js"

/** The form fields of `POST /documents` (everything but the file), as decoded from the multipart body. */
export const DocumentFields = Schema.Struct({
  documentHolder: DocumentHolderId,
  documentType: DocumentType,
  side: Schema.optional(DocumentSide),
  country: CountryCode.CountryCode,
  documentNumber: Schema.optional(FieldFormat.Text(100)),
  issuingAuthority: Schema.optional(FieldFormat.Text(255))
}).annotations({ identifier: "DocumentFields" })
export type DocumentFields = typeof DocumentFields.Type

/** The form fields of `PUT /documents/{id}`: those of an upload but the holder, which a replacement keeps. */
export const ReplaceDocumentFields = DocumentFields.omit("documentHolder").annotations({
  identifier: "ReplaceDocumentFields"
})
export type ReplaceDocumentFields = typeof ReplaceDocumentFields.Type

/**
 * An uploaded file as it arrives: its name as the client gave it (display only) and its bytes as a stream, read
 * once. The stream fails with `DocumentUnreadable` when the upload is cut short or malformed.
 */
export interface DocumentFile {
  readonly fileName: string
  readonly content: Stream.Stream<Uint8Array, DocumentUnreadable>
}
