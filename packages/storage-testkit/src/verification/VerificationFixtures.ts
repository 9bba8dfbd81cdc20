import { BeneficialOwner, type BeneficialOwnerRepo, Customer, Document, type DocumentRepo } from "@payrail/core"
import { DateTime, Option, Schema } from "effect"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

const iso = (offsetMillis = 0) => DateTime.formatIso(Fixtures.at(offsetMillis))

// Records are decoded from their wire form, so a fixture is valid by the core schema (branded fields included).
const decodeDocument = Schema.decodeUnknownSync(Document.Document)
const decodeOwner = Schema.decodeUnknownSync(BeneficialOwner.BeneficialOwner)

/** A fresh customer id (the verification repositories do not require the customer row to exist). */
export const customerId = (): Customer.CustomerId => Customer.CustomerId.make(`Customer:${uuid()}`)

/** A fresh beneficial owner id. */
export const beneficialOwnerId = (): BeneficialOwner.BeneficialOwnerId =>
  BeneficialOwner.BeneficialOwnerId.make(`BeneficialOwner:${uuid()}`)

/** A stored document of `holder` created at `at(offsetMillis)`, not submitted, at version 1. */
export const document = (
  holder: Document.DocumentHolderId,
  options: { readonly offsetMillis?: number; readonly fileName?: string } = {}
): DocumentRepo.StoredDocument => ({
  document: decodeDocument({
    id: `Document:${uuid()}`,
    documentHolder: holder,
    documentType: "DRIVERS_LICENSE",
    side: "FRONT",
    country: "US",
    documentNumber: "D1234567",
    issuingAuthority: "California DMV ✓",
    fileName: options.fileName ?? "licence-front.jpg",
    createdAt: iso(options.offsetMillis)
  }),
  contentType: "image/jpeg",
  sizeBytes: 48_213,
  submittedAt: Option.none(),
  version: 1
})

/** A stored `UNVERIFIED` owner of `customerId` created at `at(offsetMillis)`, at version 1. */
export const owner = (
  customerId: Customer.CustomerId,
  options: { readonly offsetMillis?: number; readonly lastName?: string } = {}
): BeneficialOwnerRepo.StoredBeneficialOwner => ({
  owner: decodeOwner({
    id: beneficialOwnerId(),
    customerId,
    roles: ["UBO", "DIRECTOR"],
    ownershipPercentage: 37.5,
    personalInfo: {
      firstName: "Zoë",
      lastName: options.lastName ?? "Müller",
      birthDate: "1980-02-29",
      nationality: "DE",
      email: "zoe@example.com",
      address: { line1: "1 Main St", city: "Springfield", postalCode: "12345", country: "US" },
      idType: "SSN"
    },
    kycStatus: "UNVERIFIED",
    createdAt: iso(options.offsetMillis),
    updatedAt: iso(options.offsetMillis)
  }),
  identifier: "123-45-6789",
  version: 1
})
