import type { BeneficialOwner, BeneficialOwnerRole } from "./BeneficialOwner.js"
import { type Document, type DocumentType, identityDocumentTypes } from "./Document.js"
import { VerificationError } from "./Verification.js"
import type { Customer } from "../customers/index.js"

/** An owner of a business customer with the documents it holds. */
export interface OwnerPacket {
  readonly owner: BeneficialOwner
  readonly documents: ReadonlyArray<Document>
}

/**
 * What a verification submission checks: the customer, the documents it holds and, for a business, its owners with
 * theirs.
 */
export interface Packet {
  readonly customer: Customer.Customer
  readonly documents: ReadonlyArray<Document>
  readonly owners: ReadonlyArray<OwnerPacket>
}

/**
 * The documents that prove a business exists (the reference's accepted types for
 * `MISSING_LEGAL_PRESENCE_DOCUMENT`).
 */
export const legalPresenceDocumentTypes = [
  "CERTIFICATE_OF_INCORPORATION",
  "ARTICLES_OF_INCORPORATION",
  "ARTICLES_OF_ASSOCIATION",
  "STATE_REGISTRY_EXCERPT"
] as const satisfies ReadonlyArray<DocumentType>

/** The roles that make an owner the business's control person (`MISSING_CONTROL_PERSON` otherwise). */
export const controlRoles = ["CONTROL_PERSON", "DIRECTOR"] as const satisfies ReadonlyArray<BeneficialOwnerRole>

const present = (value: unknown): boolean => (typeof value === "string" ? value.trim() !== "" : value !== undefined)

const holdsOneOf = (documents: ReadonlyArray<Document>, types: ReadonlyArray<DocumentType>): boolean =>
  documents.some((document) => types.includes(document.documentType))

/**
 * The last (in the given oldest-first order: the newest) of the documents that prove who a person is, if any: the
 * one a sandbox quality check looks at.
 */
export const identityDocument = (documents: ReadonlyArray<Document>): Document | undefined =>
  documents.filter((document) => holdsOneOf([document], identityDocumentTypes)).at(-1)

const missingField = (resourceId: VerificationError["resourceId"], field: string): VerificationError =>
  new VerificationError({ resourceId, type: "MISSING_FIELD", field, reason: `The field ${field} is required` })

const missingIdentity = (resourceId: VerificationError["resourceId"], whose: string): VerificationError =>
  new VerificationError({
    resourceId,
    type: "MISSING_IDENTITY_DOCUMENT",
    acceptedDocumentTypes: [...identityDocumentTypes],
    reason: `An identity document (passport, driver's license or national id) of ${whose} is required`
  })

const individualErrors = (customer: Customer.IndividualCustomer, documents: ReadonlyArray<Document>) => {
  const fields = { fullName: customer.fullName, birthDate: customer.birthDate, nationality: customer.nationality }
  const errors = Object.entries(fields)
    .filter(([, value]) => !present(value))
    .map(([field]) => missingField(customer.id, field))
  if (customer.address === undefined) errors.push(missingField(customer.id, "address"))
  if (!holdsOneOf(documents, identityDocumentTypes)) errors.push(missingIdentity(customer.id, "the customer"))
  return errors
}

const businessErrors = (
  customer: Customer.BusinessCustomer,
  documents: ReadonlyArray<Document>,
  owners: ReadonlyArray<OwnerPacket>
) => {
  const info = customer.businessInfo
  const fields = {
    "businessInfo.legalName": info.legalName,
    "businessInfo.registrationNumber": info.registrationNumber,
    "businessInfo.country": info.country,
    "businessInfo.incorporatedOn": info.incorporatedOn,
    "businessInfo.taxId": info.taxId
  }
  const errors = Object.entries(fields)
    .filter(([, value]) => !present(value))
    .map(([field]) => missingField(customer.id, field))
  if (customer.address === undefined) errors.push(missingField(customer.id, "address"))
  if (!holdsOneOf(documents, legalPresenceDocumentTypes)) {
    errors.push(
      new VerificationError({
        resourceId: customer.id,
        type: "MISSING_LEGAL_PRESENCE_DOCUMENT",
        acceptedDocumentTypes: [...legalPresenceDocumentTypes],
        reason:
          "A document proving the business exists (a certificate or articles of incorporation, articles of association or a state registry excerpt) is required"
      })
    )
  }
  const hasRole = (roles: ReadonlyArray<BeneficialOwnerRole>) =>
    owners.some(({ owner }) => owner.roles.some((role) => roles.includes(role)))
  if (!hasRole(["UBO"])) {
    errors.push(
      new VerificationError({
        resourceId: customer.id,
        type: "MISSING_BENEFICIAL_OWNER",
        reason: "At least one beneficial owner with the role UBO is required"
      })
    )
  }
  if (!hasRole(controlRoles)) {
    errors.push(
      new VerificationError({
        resourceId: customer.id,
        type: "MISSING_CONTROL_PERSON",
        reason: "At least one beneficial owner with the role CONTROL_PERSON or DIRECTOR is required"
      })
    )
  }
  for (const { owner, documents: held } of owners) {
    if (!holdsOneOf(held, identityDocumentTypes)) {
      const { firstName, lastName } = owner.personalInfo
      errors.push(missingIdentity(owner.id, `the beneficial owner ${firstName} ${lastName}`))
    }
  }
  return errors
}

/**
 * What keeps the packet from being decided, in a fixed order (the customer's fields, its documents, then its owners
 * in the given order); empty when it is complete. Individuals need `fullName`, `birthDate`, `nationality`,
 * `address` and an identity document. Businesses need `businessInfo.legalName`, `registrationNumber`, `country`,
 * `incorporatedOn`, `taxId`, `address`, a legal presence document, an owner with the role UBO, one with the role
 * CONTROL_PERSON or DIRECTOR, and an identity document of every owner (that owner's id is the error's
 * `resourceId`). Pure: the same packet always gives the same errors.
 */
export const check = (packet: Packet): ReadonlyArray<VerificationError> =>
  packet.customer.customerType === "INDIVIDUAL"
    ? individualErrors(packet.customer, packet.documents)
    : businessErrors(packet.customer, packet.documents, packet.owners)
