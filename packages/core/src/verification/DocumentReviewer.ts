import { Context, type Effect, type Option, Schema } from "effect"
import type { DocumentType } from "./Document.js"
import type { Platform } from "../platforms/index.js"

/**
 * Why a provider refuses a document at upload (the spec's document rejection reasons): `LOW_QUALITY` (quality too
 * low), `DATA_MISMATCH` (details differ from the information given), `EXPIRED`, `SUSPECTED_FRAUD`,
 * `UNSUITABLE_DOCUMENT`, `INCOMPLETE` (missing pages or sides).
 */
export const DocumentRejectionReason = Schema.Literal(
  "LOW_QUALITY",
  "DATA_MISMATCH",
  "EXPIRED",
  "SUSPECTED_FRAUD",
  "UNSUITABLE_DOCUMENT",
  "INCOMPLETE"
)
export type DocumentRejectionReason = typeof DocumentRejectionReason.Type

/** What the reviewer sees of an upload: its declared fields (the file's bytes are the store's). */
export interface DocumentUnderReview {
  readonly platform: Platform.Platform
  readonly documentType: DocumentType
  readonly country: string
  readonly documentNumber?: string | undefined
}

/**
 * The KYC provider's first look at a document, before its file is stored: none, or the reason it is refused (the
 * upload then answers 400 with that reason as `code`). `@payrail/sandbox` decides by magic values; a real provider
 * plugs in here. Must be safe to repeat: a retried upload asks again.
 */
export class DocumentReviewer extends Context.Tag("@payrail/core/DocumentReviewer")<
  DocumentReviewer,
  { readonly review: (document: DocumentUnderReview) => Effect.Effect<Option.Option<DocumentRejectionReason>> }
>() {}
