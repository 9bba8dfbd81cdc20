import { Schema } from "effect"
import { BeneficialOwnerId } from "./BeneficialOwner.js"
import { DocumentId, DocumentType } from "./Document.js"
import { Customer } from "../customers/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `Verification:<uuid>`. */
export const VerificationId = ResourceId.make("Verification")
export type VerificationId = typeof VerificationId.Type

/**
 * Where a verification submission stands (the reference's `VerificationStatus`). `RESOLVE_ERRORS` carries the
 * errors to fix; `PENDING_MANUAL_REVIEW` waits for a reviewer; `APPROVED` and `REJECTED` are decisions;
 * `IN_PROGRESS` means a (production) provider is working on it; `READY_FOR_VERIFICATION` is the reference's state
 * of a complete packet not yet submitted.
 */
export const VerificationStatus = Schema.Literal(
  "RESOLVE_ERRORS",
  "PENDING_MANUAL_REVIEW",
  "APPROVED",
  "REJECTED",
  "IN_PROGRESS",
  "READY_FOR_VERIFICATION"
)
export type VerificationStatus = typeof VerificationStatus.Type

/** What is wrong with a verification packet (the reference's 22 `VerificationErrorType` values). */
export const VerificationErrorType = Schema.Literal(
  "MISSING_FIELD",
  "INVALID_FIELD",
  "MISSING_LEGAL_PRESENCE_DOCUMENT",
  "MISSING_CONTROL_STRUCTURE_DOCUMENT",
  "MISSING_OWNERSHIP_STRUCTURE_DOCUMENT",
  "MISSING_PROOF_OF_ADDRESS_DOCUMENT",
  "MISSING_IDENTITY_DOCUMENT",
  "MISSING_GOOD_STANDING_DOCUMENT",
  "INVALID_DOCUMENT",
  "EXPIRED_DOCUMENT",
  "POOR_QUALITY_DOCUMENT",
  "SUSPECTED_FRAUD_DOCUMENT",
  "WRONG_DOCUMENT_TYPE",
  "INCOMPLETE_DOCUMENT",
  "UNREADABLE_DOCUMENT",
  "DOCUMENT_VERIFICATION_FAILED",
  "APPLICANT_SANCTIONED",
  "APPLICANT_FRAUD",
  "APPLICANT_CRIMINAL_RECORD",
  "APPLICANT_REJECTED",
  "MISSING_BENEFICIAL_OWNER",
  "MISSING_CONTROL_PERSON"
)
export type VerificationErrorType = typeof VerificationErrorType.Type

/** The resource an error is about: the customer, one of its owners, or one of their documents. */
export const VerificationResourceId = Schema.Union(Customer.CustomerId, BeneficialOwnerId, DocumentId)
export type VerificationResourceId = typeof VerificationResourceId.Type

/**
 * One thing to fix before a verification can be decided (the reference's `VerificationError`). `field` names the
 * missing or invalid field as the API spells it (`MISSING_FIELD`, `INVALID_FIELD`); `acceptedDocumentTypes` lists
 * the documents that would satisfy a `MISSING_*_DOCUMENT`.
 */
export class VerificationError extends SchemaClass.Class<VerificationError>("VerificationError")({
  resourceId: VerificationResourceId,
  type: VerificationErrorType,
  field: Schema.optional(Schema.String),
  acceptedDocumentTypes: Schema.optional(Schema.Array(DocumentType)),
  reason: Schema.String
}) {}

/**
 * One submission of a customer for verification (`POST /verifications`). Each submission is a new record; the
 * customer's newest is its current one. `errors` is always present: empty unless `RESOLVE_ERRORS`.
 */
export class Verification extends SchemaClass.Class<Verification>("Verification")({
  id: VerificationId,
  customerId: Customer.CustomerId,
  verificationStatus: VerificationStatus,
  errors: Schema.Array(VerificationError),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.optional(Schema.DateTimeUtc)
}) {}
