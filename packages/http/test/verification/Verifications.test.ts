import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { Document, DocumentRepo, Outbox, Platform, Platforms } from "@payrail/core"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

const png = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64"
  )
)

// Without the platform stablecoin: the spec approves such platforms' customers at creation, which would hide the
// regulated / unregulated difference the tables are about.
const fiatOnly = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  supportedCurrencies: Platforms.defaultConfig.supportedCurrencies.filter(
    (currency) => currency.currencyCode !== "USDC"
  )
})

type Kind = "unregulated" | "regulated" | "skipPaperwork"

const address = { line1: "1 Main St", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }

/**
 * The spec's "Customer verification (sandbox-shown behavior)" and "Sandbox-only behavior" tables, row by row,
 * through HTTP on every storage adapter.
 */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`verifications over HTTP on ${adapter.name}`, () => {
    const apis = {} as Record<Kind, Harness>

    beforeAll(async () => {
      for (const kind of ["unregulated", "regulated", "skipPaperwork"] as const) {
        const api = await makeHarness({ storage: adapter.storage(), config: fiatOnly })
        const flags =
          kind === "regulated"
            ? { isRegulatedFinancialInstitution: true }
            : kind === "skipPaperwork"
              ? { skipPaperwork: true }
              : {}
        if (kind !== "unregulated") {
          const patched = await api.request(`${base}/config`, { method: "PATCH", body: JSON.stringify(flags) })
          expect(patched.status).toBe(200)
        }
        apis[kind] = api
      }
    }, 120_000)
    afterAll(async () => {
      for (const api of Object.values(apis)) await api.dispose()
    })

    const send = async (kind: Kind, method: string, path: string, body?: unknown) => {
      const response = await apis[kind].request(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: await response.json() }
    }

    // A real 1x1 PNG, uploaded through `POST /documents` as a platform would.
    const holdDocument = async (kind: Kind, holder: string, documentType: string) => {
      const body = new FormData()
      for (const [key, value] of Object.entries({ documentHolder: holder, documentType, country: "US" })) {
        body.set(key, value)
      }
      body.set("file", new Blob([Uint8Array.from(png)], { type: "image/png" }), "scan.png")
      const response = await apis[kind].request(`${base}/documents`, { method: "POST", body })
      expect(response.status).toBe(201)
      return ((await response.json()) as { id: string }).id
    }

    // Whether the document was marked submitted (it then cannot be deleted).
    const submittedAt = (kind: Kind, id: string) =>
      apis[kind].run(
        Effect.map(
          Effect.flatMap(DocumentRepo.DocumentRepo, (repo) =>
            repo.findById(apis[kind].platform.id, id as Document.DocumentId)
          ),
          Option.flatMap((stored) => stored.submittedAt)
        )
      )

    const individual = async (kind: Kind, fullName: string, complete: boolean) => {
      const created = await send(kind, "POST", "/customers", {
        customerType: "INDIVIDUAL",
        fullName,
        nationality: "US",
        address,
        ...(complete ? { birthDate: "1990-12-10" } : {})
      })
      expect(created.status).toBe(201)
      const documentId = complete ? await holdDocument(kind, created.body.id, "PASSPORT") : undefined
      return { customer: created.body, documentId }
    }

    const owner = async (kind: Kind, customerId: string, lastName: string, roles: ReadonlyArray<string>) => {
      const created = await send(kind, "POST", "/beneficial-owners", {
        customerId,
        roles,
        ownershipPercentage: 50,
        personalInfo: {
          firstName: "Jane",
          lastName,
          birthDate: "1978-06-15",
          nationality: "US",
          address,
          idType: "SSN",
          identifier: "123-45-6789"
        }
      })
      expect(created.status).toBe(201)
      await holdDocument(kind, created.body.id, "DRIVERS_LICENSE")
      return created.body.id as string
    }

    const business = async (
      kind: Kind,
      registrationNumber: string,
      complete: boolean,
      ownerLastNames: ReadonlyArray<string> = ["Smith", "Jones"]
    ) => {
      const created = await send(kind, "POST", "/customers", {
        customerType: "BUSINESS",
        businessInfo: {
          legalName: "Engines Ltd",
          registrationNumber,
          ...(complete ? { country: "US", incorporatedOn: "2010-01-01", taxId: "12-3456789" } : {})
        },
        address
      })
      expect(created.status).toBe(201)
      const owners: Array<string> = []
      if (complete) {
        await holdDocument(kind, created.body.id, "CERTIFICATE_OF_INCORPORATION")
        const [first = "Smith", ...rest] = ownerLastNames
        owners.push(await owner(kind, created.body.id, first, ["UBO"]))
        for (const lastName of rest) owners.push(await owner(kind, created.body.id, lastName, ["CONTROL_PERSON"]))
      }
      return { customer: created.body, owners }
    }

    const submit = (kind: Kind, customerId: string) => send(kind, "POST", "/verifications", { customerId })
    const statusOf = async (kind: Kind, customerId: string) => {
      const { body } = await send(kind, "GET", `/customers/${customerId}`)
      return body.customerType === "INDIVIDUAL" ? body.kycStatus : body.kybStatus
    }

    describe("KYC: an individual by the last 3 characters of fullName", () => {
      it.each([
        // platform, suffix, complete packet, created with, answer, verificationStatus, status after
        ["unregulated", "001", true, "UNVERIFIED", 200, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["unregulated", "002", true, "UNVERIFIED", 200, "REJECTED", "REJECTED"],
        ["unregulated", "003", true, "UNVERIFIED", 200, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["unregulated", "999", true, "UNVERIFIED", 200, "APPROVED", "APPROVED"],
        ["unregulated", "001", false, "UNVERIFIED", 200, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["unregulated", "999", false, "UNVERIFIED", 200, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["regulated", "001", true, "PENDING", 200, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["regulated", "001", false, "PENDING", 200, "RESOLVE_ERRORS", "PENDING"],
        ["regulated", "002", true, "REJECTED", 400, undefined, "REJECTED"],
        ["regulated", "003", true, "UNVERIFIED", 200, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["regulated", "999", true, "APPROVED", 400, undefined, "APPROVED"],
        ["skipPaperwork", "001", true, "PENDING", 200, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["skipPaperwork", "002", true, "REJECTED", 400, undefined, "REJECTED"],
        ["skipPaperwork", "003", true, "UNVERIFIED", 200, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["skipPaperwork", "999", true, "APPROVED", 400, undefined, "APPROVED"]
      ] as const)(
        "%s platform, suffix %s, complete packet %s: created %s, POST /verifications %i %s, then %s",
        async (kind, suffix, complete, createdWith, answer, verificationStatus, after) => {
          const { customer, documentId } = await individual(kind, `Ada Lovelace ${suffix}`, complete)
          expect(customer.kycStatus).toBe(createdWith)
          const { body, status } = await submit(kind, customer.id)
          expect(status).toBe(answer)
          if (answer === 400) {
            expect(body).toMatchObject({ code: "INVALID_INPUT", details: { rule: "verification_final" } })
          } else {
            expect(body).toMatchObject({ customerId: customer.id, verificationStatus })
            expect(body.id).toMatch(/^Verification:[0-9a-f-]{36}$/)
            if (verificationStatus !== "RESOLVE_ERRORS") expect(body.errors).toEqual([])
            else if (complete) {
              expect(body.errors).toEqual([
                expect.objectContaining({ type: "POOR_QUALITY_DOCUMENT", resourceId: documentId })
              ])
            } else {
              expect(body.errors).toEqual(
                expect.arrayContaining([
                  expect.objectContaining({ type: "MISSING_FIELD", field: "birthDate", resourceId: customer.id }),
                  expect.objectContaining({
                    type: "MISSING_IDENTITY_DOCUMENT",
                    acceptedDocumentTypes: ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"]
                  })
                ])
              )
            }
            expect((await send(kind, "GET", `/verifications/${body.id}`)).body).toEqual(body)
            if (documentId !== undefined) {
              expect(Option.isSome(await submittedAt(kind, documentId))).toBe(verificationStatus !== "RESOLVE_ERRORS")
            }
          }
          expect(await statusOf(kind, customer.id)).toBe(after)
        }
      )
    })

    describe("KYB: a business by the last 3 characters of registrationNumber, at first submission", () => {
      it.each([
        ["unregulated", "001", true, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["unregulated", "002", true, "REJECTED", "REJECTED"],
        ["unregulated", "003", true, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["unregulated", "999", true, "APPROVED", "APPROVED"],
        ["unregulated", "002", false, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["unregulated", "999", false, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["regulated", "001", true, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["regulated", "001", false, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["regulated", "003", true, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["regulated", "003", false, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["regulated", "002", false, "REJECTED", "REJECTED"],
        ["regulated", "999", false, "APPROVED", "APPROVED"],
        ["skipPaperwork", "001", false, "RESOLVE_ERRORS", "UNVERIFIED"],
        ["skipPaperwork", "003", true, "PENDING_MANUAL_REVIEW", "PENDING"],
        ["skipPaperwork", "002", false, "REJECTED", "REJECTED"],
        ["skipPaperwork", "999", false, "APPROVED", "APPROVED"]
      ] as const)(
        "%s platform, suffix %s, complete packet %s: %s, kybStatus %s",
        async (kind, suffix, complete, verificationStatus, after) => {
          const { customer } = await business(kind, `REG-${suffix}`, complete)
          expect(customer.kybStatus).toBe("UNVERIFIED")
          const { body, status } = await submit(kind, customer.id)
          expect(status).toBe(200)
          expect(body).toMatchObject({ customerId: customer.id, verificationStatus })
          if (verificationStatus === "RESOLVE_ERRORS") {
            expect(
              body.errors.map((error: { field?: string; type: string }) => error.field ?? error.type).sort()
            ).toEqual([
              "MISSING_BENEFICIAL_OWNER",
              "MISSING_CONTROL_PERSON",
              "MISSING_LEGAL_PRESENCE_DOCUMENT",
              "businessInfo.country",
              "businessInfo.incorporatedOn",
              "businessInfo.taxId"
            ])
          } else expect(body.errors).toEqual([])
          expect(await statusOf(kind, customer.id)).toBe(after)
        }
      )

      it("resolves the owners with the business by the last 3 characters of personalInfo.lastName", async () => {
        const { customer, owners } = await business("unregulated", "REG-999", true, ["Smith001", "Jones002", "Brown"])
        for (const id of owners)
          expect((await send("unregulated", "GET", `/beneficial-owners/${id}`)).body.kycStatus).toBe("UNVERIFIED")
        expect((await submit("unregulated", customer.id)).body.verificationStatus).toBe("APPROVED")
        const statuses = []
        for (const id of owners)
          statuses.push((await send("unregulated", "GET", `/beneficial-owners/${id}`)).body.kycStatus)
        expect(statuses).toEqual(["PENDING", "REJECTED", "APPROVED"])
      })

      it("names each owner without an identity document by its id", async () => {
        const { customer, owners } = await business("unregulated", "REG-999", true)
        const bare = await owner("unregulated", customer.id, "Doe", ["DIRECTOR"])
        // The owner helper attaches a document; an owner without one is added through the API alone.
        const naked = await send("unregulated", "POST", "/beneficial-owners", {
          customerId: customer.id,
          roles: ["COMPANY_OFFICER"],
          ownershipPercentage: 0,
          personalInfo: {
            firstName: "Joe",
            lastName: "Bloggs",
            birthDate: "1980-01-01",
            nationality: "US",
            address,
            idType: "SSN",
            identifier: "123-45-6789"
          }
        })
        const { body } = await submit("unregulated", customer.id)
        expect(body.verificationStatus).toBe("RESOLVE_ERRORS")
        expect(body.errors).toEqual([
          expect.objectContaining({ type: "MISSING_IDENTITY_DOCUMENT", resourceId: naked.body.id })
        ])
        expect(owners.concat(bare)).not.toContain(naked.body.id)
      })
    })

    describe("final states and resubmission", () => {
      it("keeps APPROVED and REJECTED final: another submission is a 400 and renaming does not re-derive them", async () => {
        for (const [suffix, final] of [
          ["999", "APPROVED"],
          ["002", "REJECTED"]
        ] as const) {
          const { customer } = await individual("unregulated", `Grace Hopper ${suffix}`, true)
          expect((await submit("unregulated", customer.id)).body.verificationStatus).toBe(final)
          const renamed = await send("unregulated", "PATCH", `/customers/${customer.id}`, {
            customerType: "INDIVIDUAL",
            fullName: `Grace Hopper ${suffix === "999" ? "002" : "999"}`
          })
          expect(renamed.body.kycStatus).toBe(final)
          const again = await submit("unregulated", customer.id)
          expect(again.status).toBe(400)
          expect(again.body).toMatchObject({ code: "INVALID_INPUT", details: { rule: "verification_final" } })
          expect(await statusOf("unregulated", customer.id)).toBe(final)
        }
      })

      it("records each submission of a PENDING customer as a new verification, listed newest first", async () => {
        const { customer } = await individual("unregulated", "Alan Turing 001", true)
        const first = (await submit("unregulated", customer.id)).body
        const second = (await submit("unregulated", customer.id)).body
        expect(second.id).not.toBe(first.id)
        expect(second.verificationStatus).toBe("PENDING_MANUAL_REVIEW")
        const listed = await send("unregulated", "GET", `/verifications?customerId=${customer.id}`)
        expect(listed.body).toMatchObject({ hasMore: false, totalCount: 2 })
        expect(listed.body.data.map((each: { id: string }) => each.id)).toEqual([second.id, first.id])
        const filtered = await send(
          "unregulated",
          "GET",
          `/verifications?customerId=${customer.id}&verificationStatus=APPROVED`
        )
        expect(filtered.body).toMatchObject({ data: [], totalCount: 0 })
      })

      it("lets only one of concurrent submissions decide the customer", async () => {
        const { customer } = await individual("unregulated", "Kathleen Booth 999", true)
        const answers = await Promise.all([1, 2, 3, 4].map(() => submit("unregulated", customer.id)))
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400])
        expect(await statusOf("unregulated", customer.id)).toBe("APPROVED")
      })

      it("records VERIFICATION.<status> and, when the status changes, CUSTOMER.KYC_<status> in the outbox", async () => {
        const eventsOf = (customerId: string) =>
          apis.unregulated.run(
            Effect.map(
              Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)),
              (events) =>
                events
                  .filter((event) => event.data["customerId"] === customerId || event.data["id"] === customerId)
                  .map((event) => [event.type, event.data["verificationStatus"] ?? event.data["kycStatus"]])
            )
          )
        const approved = await individual("unregulated", "Mary Somerville 999", true)
        const verification = (await submit("unregulated", approved.customer.id)).body
        expect(await eventsOf(approved.customer.id)).toEqual([
          ["CUSTOMER.CREATED", "UNVERIFIED"],
          ["VERIFICATION.APPROVED", "APPROVED"],
          ["CUSTOMER.KYC_APPROVED", "APPROVED"]
        ])
        const recorded = await apis.unregulated.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)))
        expect(
          recorded.find((event) => event.type === "VERIFICATION.APPROVED" && event.data["id"] === verification.id)?.data
        ).toEqual(verification)
        const incomplete = await individual("unregulated", "Mary Somerville 999", false)
        await submit("unregulated", incomplete.customer.id)
        expect(await eventsOf(incomplete.customer.id)).toEqual([
          ["CUSTOMER.CREATED", "UNVERIFIED"],
          ["VERIFICATION.RESOLVE_ERRORS", "RESOLVE_ERRORS"]
        ])
      })

      it("answers 404 for an unknown customer or verification, and 400 for a malformed id", async () => {
        const unknown = await submit("unregulated", `Customer:${crypto.randomUUID()}`)
        expect(unknown).toMatchObject({ status: 404, body: { code: "USER_NOT_FOUND" } })
        const missing = await send("unregulated", "GET", `/verifications/Verification:${crypto.randomUUID()}`)
        expect(missing).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } })
        expect((await submit("unregulated", "nope")).status).toBe(400)
        expect((await send("unregulated", "GET", "/verifications/nope")).status).toBe(400)
      })
    })
  })
}
