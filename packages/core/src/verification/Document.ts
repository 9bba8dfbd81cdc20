import { Schema } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"
import { BeneficialOwnerId } from "./BeneficialOwner.js"
import { Customer } from "../customers/index.js"
import { ResourceId, SchemaClass } from "../kernel/index.js"

/** `Document:<uuid>`. */
export const DocumentId = ResourceId.make("Document")
export type DocumentId = typeof DocumentId.Type

/** The kinds of document the reference accepts (its `DocumentType`, all 26 values). */
export const DocumentType = Schema.Literal(
  "PASSPORT",
  "DRIVERS_LICENSE",
  "NATIONAL_ID",
  "PROOF_OF_ADDRESS",
  "BANK_STATEMENT",
  "TAX_RETURN",
  "CERTIFICATE_OF_INCORPORATION",
  "ARTICLES_OF_INCORPORATION",
  "ARTICLES_OF_ASSOCIATION",
  "STATE_REGISTRY_EXCERPT",
  "GOOD_STANDING_CERTIFICATE",
  "INFORMATION_STATEMENT",
  "INCUMBENCY_CERTIFICATE",
  "BUSINESS_LICENSE",
  "SHAREHOLDER_REGISTER",
  "POWER_OF_ATTORNEY",
  "UTILITY_BILL",
  "ELECTRICITY_BILL",
  "RENT_OR_LEASE_AGREEMENT",
  "DIRECTOR_REGISTRY",
  "TRUST_AGREEMENT",
  "STATE_COMPANY_REGISTRY",
  "PARTNERSHIP_CONTROL_AGREEMENT",
  "PARTNERSHIP_AGREEMENT",
  "SELFIE",
  "OTHER"
)
export type DocumentType = typeof DocumentType.Type

/** Document types that prove who a person is (`MISSING_IDENTITY_DOCUMENT`'s `acceptedDocumentTypes`). */
export const identityDocumentTypes = [
  "PASSPORT",
  "DRIVERS_LICENSE",
  "NATIONAL_ID"
] as const satisfies ReadonlyArray<DocumentType>

/** Which side of a two-sided document (a driver's license, a national id) an upload shows. */
export const DocumentSide = Schema.Literal("FRONT", "BACK")
export type DocumentSide = typeof DocumentSide.Type

/** Whose document it is: a customer or one of a business customer's beneficial owners. */
export const DocumentHolderId = Schema.Union(Customer.CustomerId, BeneficialOwnerId)
export type DocumentHolderId = typeof DocumentHolderId.Type

/**
 * The file types a document may be, decided from the file's first bytes (its magic number), never from its name
 * or its declared content type.
 */
export const DocumentContentType = Schema.Literal("image/jpeg", "image/png", "application/pdf")
export type DocumentContentType = typeof DocumentContentType.Type

/** A document as the API returns it (the reference's `Document`). The file itself is never part of it. */
export class Document extends SchemaClass.Class<Document>("Document")({
  id: DocumentId,
  documentHolder: DocumentHolderId,
  documentType: DocumentType,
  side: Schema.optional(DocumentSide),
  country: CountryCode.CountryCode,
  documentNumber: Schema.optional(FieldFormat.Text(100)),
  issuingAuthority: Schema.optional(FieldFormat.Text(255)),
  /** The uploaded file's name as the client gave it (for display only; it decides nothing). */
  fileName: Schema.String,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.optional(Schema.DateTimeUtc)
}) {}
