import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import { BeneficialOwner, Customer, Document, PacketCheck, Platform, Platforms } from "@payrail/core"
import { SandboxKyc } from "@payrail/sandbox"

const at = DateTime.unsafeMake(0)
const uuid = () => globalThis.crypto.randomUUID()

const platformWith = (overrides: Partial<Platform.PlatformConfig>, environment: Platform.Environment = "SANDBOX") =>
  new Platform.Platform({
    id: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    name: "p",
    environment,
    config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, ...overrides }),
    createdAt: at,
    updatedAt: at
  })

const address = { line1: "1 Main St", postalCode: "94105", country: "US" } as Customer.IndividualCustomer["address"]
const us = "US" as Document.Document["country"]

const document = (holder: string, documentType: Document.DocumentType) =>
  new Document.Document({
    id: Document.DocumentId.make(`Document:${uuid()}`),
    documentHolder: holder as Document.DocumentHolderId,
    documentType,
    country: us,
    fileName: "scan.pdf",
    createdAt: at
  })

const individual = (fullName: string | undefined, kycStatus: Customer.IndividualCustomer["kycStatus"] = "UNVERIFIED") =>
  new Customer.IndividualCustomer({
    id: Customer.CustomerId.make(`Customer:${uuid()}`),
    customerType: "INDIVIDUAL",
    platformCustomerId: "pc",
    createdAt: at,
    updatedAt: at,
    isDeleted: false,
    kycStatus,
    ...(fullName === undefined ? {} : { fullName }),
    birthDate: "1990-12-10",
    nationality: us,
    address
  })

const business = (registrationNumber: string) =>
  new Customer.BusinessCustomer({
    id: Customer.CustomerId.make(`Customer:${uuid()}`),
    customerType: "BUSINESS",
    platformCustomerId: "pc",
    createdAt: at,
    updatedAt: at,
    isDeleted: false,
    kybStatus: "UNVERIFIED",
    businessInfo: {
      legalName: "Engines Ltd",
      registrationNumber,
      country: us,
      incorporatedOn: "2010-01-01",
      taxId: "1"
    },
    address
  })

const owner = (customerId: Customer.CustomerId, lastName: string, roles: BeneficialOwner.BeneficialOwner["roles"]) =>
  new BeneficialOwner.BeneficialOwner({
    id: BeneficialOwner.BeneficialOwnerId.make(`BeneficialOwner:${uuid()}`),
    customerId,
    roles,
    ownershipPercentage: 50,
    personalInfo: {
      firstName: "Jane",
      lastName,
      birthDate: "1978-06-15",
      nationality: us,
      address: address!,
      idType: "SSN"
    },
    kycStatus: "UNVERIFIED",
    createdAt: at,
    updatedAt: at
  })

const decide = (platform: Platform.Platform, packet: PacketCheck.Packet) =>
  SandboxKyc.decideSubmission({ platform, packet, errors: PacketCheck.check(packet) })

describe("PacketCheck", () => {
  it("lists every missing individual field and the identity document, with the accepted types", () => {
    const bare = new Customer.IndividualCustomer({ ...individual(undefined), birthDate: undefined, address: undefined })
    const errors = PacketCheck.check({ customer: bare, documents: [], owners: [] })
    expect(errors.map((error) => error.field ?? error.type)).toEqual([
      "fullName",
      "birthDate",
      "address",
      "MISSING_IDENTITY_DOCUMENT"
    ])
    expect(errors.every((error) => error.resourceId === bare.id && error.reason.length > 0)).toBe(true)
    expect(errors[3]?.acceptedDocumentTypes).toEqual(["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"])
  })

  it("accepts a complete individual packet, whatever other documents it holds", () => {
    const customer = individual("Ada")
    const documents = [document(customer.id, "UTILITY_BILL"), document(customer.id, "NATIONAL_ID")]
    expect(PacketCheck.check({ customer, documents, owners: [] })).toEqual([])
  })

  it("requires a business's legal presence document, a UBO, a control person and each owner's identity", () => {
    const customer = business("REG-9")
    const ubo = owner(customer.id, "Smith", ["UBO"])
    const officer = owner(customer.id, "Jones", ["COMPANY_OFFICER"])
    const errors = PacketCheck.check({
      customer,
      documents: [],
      owners: [
        { owner: ubo, documents: [document(ubo.id, "PASSPORT")] },
        { owner: officer, documents: [] }
      ]
    })
    expect(errors.map((error) => [error.type, error.resourceId])).toEqual([
      ["MISSING_LEGAL_PRESENCE_DOCUMENT", customer.id],
      ["MISSING_CONTROL_PERSON", customer.id],
      ["MISSING_IDENTITY_DOCUMENT", officer.id]
    ])
    expect(errors[0]?.acceptedDocumentTypes).toEqual(PacketCheck.legalPresenceDocumentTypes)
  })
})

describe("SandboxKyc.decideSubmission", () => {
  const complete = (customer: Customer.IndividualCustomer) => ({
    customer,
    documents: [document(customer.id, "PASSPORT")],
    owners: []
  })

  it("decides a complete individual packet by the fullName suffix", () => {
    const unregulated = platformWith({})
    const outcome = (name: string) => {
      const decision = decide(unregulated, complete(individual(name)))
      return [decision.status, decision.verificationStatus, decision.errors.map((error) => error.type)]
    }
    expect(outcome("Jo 001")).toEqual(["PENDING", "PENDING_MANUAL_REVIEW", []])
    expect(outcome("Jo 002")).toEqual(["REJECTED", "REJECTED", []])
    expect(outcome("Jo 003")).toEqual(["UNVERIFIED", "RESOLVE_ERRORS", ["POOR_QUALITY_DOCUMENT"]])
    expect(outcome("Jo")).toEqual(["APPROVED", "APPROVED", []])
  })

  it("points POOR_QUALITY_DOCUMENT at the identity document", () => {
    const packet = complete(individual("Jo 003"))
    expect(decide(platformWith({}), packet).errors[0]?.resourceId).toBe(packet.documents[0]?.id)
  })

  it("keeps a PENDING customer pending for review, whatever its name says now", () => {
    const decision = decide(platformWith({}), complete(individual("Jo 999", "PENDING")))
    expect([decision.status, decision.verificationStatus]).toEqual(["PENDING", "PENDING_MANUAL_REVIEW"])
  })

  it("hands a complete packet to the provider on a production platform: PENDING and IN_PROGRESS", () => {
    for (const name of ["Jo 001", "Jo 002", "Jo 003", "Jo"]) {
      const decision = decide(platformWith({ skipPaperwork: true }, "PRODUCTION"), complete(individual(name)))
      expect([decision.status, decision.verificationStatus, decision.errors]).toEqual(["PENDING", "IN_PROGRESS", []])
    }
    const incomplete = decide(platformWith({}, "PRODUCTION"), { customer: individual("Jo"), documents: [], owners: [] })
    expect([incomplete.status, incomplete.verificationStatus]).toEqual(["UNVERIFIED", "RESOLVE_ERRORS"])
  })

  it("decides final KYB suffixes without the packet only on regulated or skip-paperwork platforms", () => {
    const bare = (registrationNumber: string) => ({ customer: business(registrationNumber), documents: [], owners: [] })
    for (const flags of [{ isRegulatedFinancialInstitution: true }, { skipPaperwork: true }]) {
      expect(decide(platformWith(flags), bare("R-002")).verificationStatus).toBe("REJECTED")
      expect(decide(platformWith(flags), bare("R-777")).verificationStatus).toBe("APPROVED")
      expect(decide(platformWith(flags), bare("R-001")).verificationStatus).toBe("RESOLVE_ERRORS")
      expect(decide(platformWith(flags), bare("R-003")).verificationStatus).toBe("RESOLVE_ERRORS")
    }
    expect(decide(platformWith({}), bare("R-002")).verificationStatus).toBe("RESOLVE_ERRORS")
  })

  it("resolves a decided business's owners by the suffix of their last name", () => {
    const customer = business("R-777")
    const owners = [
      owner(customer.id, "Smith001", ["UBO"]),
      owner(customer.id, "Jones002", ["DIRECTOR"]),
      owner(customer.id, "Brown", ["CONTROL_PERSON"])
    ]
    const decision = decide(platformWith({}), {
      customer,
      documents: [document(customer.id, "ARTICLES_OF_ASSOCIATION")],
      owners: owners.map((each) => ({ owner: each, documents: [document(each.id, "PASSPORT")] }))
    })
    expect(decision.verificationStatus).toBe("APPROVED")
    expect(decision.owners).toEqual([
      { id: owners[0]!.id, kycStatus: "PENDING" },
      { id: owners[1]!.id, kycStatus: "REJECTED" },
      { id: owners[2]!.id, kycStatus: "APPROVED" }
    ])
  })
})
