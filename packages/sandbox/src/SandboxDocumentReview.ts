import { Effect, Layer, Option } from "effect"
import { DocumentReviewer } from "@payrail/core"

/**
 * The rejection reason the last 3 characters of a sandbox document's `documentNumber` select: `201` LOW_QUALITY,
 * `202` DATA_MISMATCH, `203` EXPIRED, `204` SUSPECTED_FRAUD, `205` UNSUITABLE_DOCUMENT, `206` INCOMPLETE; anything
 * else (or no number) is accepted.
 */
export const rejectionForDocumentNumber = (
  documentNumber: string | undefined
): Option.Option<DocumentReviewer.DocumentRejectionReason> => {
  switch ((documentNumber ?? "").slice(-3)) {
    case "201":
      return Option.some("LOW_QUALITY")
    case "202":
      return Option.some("DATA_MISMATCH")
    case "203":
      return Option.some("EXPIRED")
    case "204":
      return Option.some("SUSPECTED_FRAUD")
    case "205":
      return Option.some("UNSUITABLE_DOCUMENT")
    case "206":
      return Option.some("INCOMPLETE")
    default:
      return Option.none()
  }
}

/**
 * The sandbox's document review: a sandbox platform's document is refused by `rejectionForDocumentNumber`; a
 * production platform's is never refused here (a real provider reviews it).
 */
export const layer: Layer.Layer<DocumentReviewer.DocumentReviewer> = Layer.succeed(DocumentReviewer.DocumentReviewer, {
  review: ({ platform, documentNumber }) =>
    Effect.succeed(platform.environment === "SANDBOX" ? rejectionForDocumentNumber(documentNumber) : Option.none())
})
