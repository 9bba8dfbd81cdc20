import { Context } from "effect"

/** The default largest document file, in bytes (10 MiB). */
export const defaultMaxFileBytes = 10 * 1024 * 1024

/**
 * How large a document file may be. A reference with a default (10 MiB), so embedders need not provide it; the
 * reference server sets it from `PAYRAIL_DOCUMENT_MAX_BYTES`. The limit is enforced while the file streams in:
 * no more than it (plus one chunk) is ever read before the upload is refused.
 */
export class DocumentLimits extends Context.Reference<DocumentLimits>()("@payrail/core/DocumentLimits", {
  defaultValue: (): { readonly maxFileBytes: number } => ({ maxFileBytes: defaultMaxFileBytes })
}) {}
