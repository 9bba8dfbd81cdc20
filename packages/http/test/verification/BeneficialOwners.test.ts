import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"
const identifier = "123-45-6789"

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`beneficial owners over HTTP on ${adapter.name}`, () => {
    let api: Harness
    let businessId: string

    const send = (method: string, path: string, body?: unknown, auth?: string) =>
      api.request(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(auth ? { auth } : {})
      })

    const createCustomer = async (body: unknown, auth?: string) =>
      (await send("POST", "/customers", body, auth)).json() as Promise<{ id: string }>

    const owner = (overrides: Record<string, unknown> = {}) => ({
      customerId: businessId,
      roles: ["UBO", "DIRECTOR"],
      ownershipPercentage: 51,
      personalInfo: {
        firstName: "Jane",
        middleName: "Marie",
        lastName: "Smith",
        birthDate: "1978-06-15",
        nationality: "US",
        email: "jane.smith@example.com",
        phoneNumber: "+14155550192",
        address: { line1: "1 Main St", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" },
        idType: "SSN",
        identifier,
        countryOfIssuance: "US"
      },
      ...overrides
    })

    const fieldsOf = (body: { details: { errors: ReadonlyArray<{ field: string }> } }) =>
      body.details.errors.map((error) => error.field).sort()

    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
      businessId = (await createCustomer({ customerType: "BUSINESS", businessInfo: { legalName: "Engines Ltd" } })).id
    })
    afterAll(() => api.dispose())

    it("creates an UNVERIFIED owner (201) and reads, lists and updates it, never answering the identifier", async () => {
      const created = await send("POST", "/beneficial-owners", owner())
      expect(created.status).toBe(201)
      const body = await created.json()
      expect(body).toMatchObject({
        customerId: businessId,
        roles: ["UBO", "DIRECTOR"],
        ownershipPercentage: 51,
        kycStatus: "UNVERIFIED",
        personalInfo: { firstName: "Jane", lastName: "Smith", idType: "SSN", countryOfIssuance: "US" }
      })
      expect(body.id).toMatch(/^BeneficialOwner:[0-9a-f-]{36}$/)
      expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

      const got = await send("GET", `/beneficial-owners/${body.id}`)
      expect(got.status).toBe(200)
      expect(await got.json()).toEqual(body)

      const patched = await send("PATCH", `/beneficial-owners/${body.id}`, {
        ownershipPercentage: 30,
        personalInfo: { lastName: "Smith-Jones", identifier: "987-65-4321", address: owner().personalInfo.address }
      })
      expect(patched.status).toBe(200)
      const updated = await patched.json()
      expect(updated).toMatchObject({
        id: body.id,
        ownershipPercentage: 30,
        roles: ["UBO", "DIRECTOR"],
        kycStatus: "UNVERIFIED",
        personalInfo: { firstName: "Jane", lastName: "Smith-Jones", email: "jane.smith@example.com" }
      })

      const listed = await send("GET", `/beneficial-owners?customerId=${businessId}`)
      expect(listed.status).toBe(200)
      const page = await listed.json()
      expect(page.data).toContainEqual(updated)
      for (const text of [body, await (await send("GET", `/beneficial-owners/${body.id}`)).json(), updated, page]) {
        const json = JSON.stringify(text)
        expect(json).not.toContain("identifier")
        expect(json).not.toContain(identifier)
        expect(json).not.toContain("987-65-4321")
      }
    })

    it("pages a customer's owners newest first with limit and cursor", async () => {
      const customerId = (await createCustomer({ customerType: "BUSINESS", businessInfo: { legalName: "Paged Ltd" } }))
        .id
      const ids: Array<string> = []
      for (let index = 0; index < 3; index++) {
        ids.push((await (await send("POST", "/beneficial-owners", owner({ customerId }))).json()).id)
      }
      const first = await (await send("GET", `/beneficial-owners?customerId=${customerId}&limit=2`)).json()
      expect([first.data.length, first.hasMore, first.totalCount]).toEqual([2, true, 3])
      const cursor = encodeURIComponent(first.nextCursor)
      const second = await (
        await send("GET", `/beneficial-owners?customerId=${customerId}&limit=2&cursor=${cursor}`)
      ).json()
      expect([second.data.length, second.hasMore]).toEqual([1, false])
      expect([...first.data, ...second.data].map((each: { id: string }) => each.id).sort()).toEqual(ids.sort())
    })

    it("names every invalid field of a creation, never echoing the values", async () => {
      const response = await send("POST", "/beneficial-owners", {
        customerId: "Customer:nope",
        roles: [],
        ownershipPercentage: 100.5,
        personalInfo: {
          firstName: "",
          lastName: "x".repeat(251),
          birthDate: "1978-13-45",
          nationality: "XX",
          email: "not-an-email",
          phoneNumber: "555-0192",
          address: { line1: "1 Main St" },
          idType: "PASSPORT",
          identifier: "12345",
          countryOfIssuance: "ZZ",
          favouriteColour: "blue"
        }
      })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe("INVALID_INPUT")
      expect(fieldsOf(body)).toEqual([
        "customerId",
        "ownershipPercentage",
        "personalInfo.address.country",
        "personalInfo.address.postalCode",
        "personalInfo.birthDate",
        "personalInfo.countryOfIssuance",
        "personalInfo.email",
        "personalInfo.favouriteColour",
        "personalInfo.firstName",
        "personalInfo.idType",
        "personalInfo.identifier",
        "personalInfo.lastName",
        "personalInfo.nationality",
        "personalInfo.phoneNumber",
        // An empty list lacks its first role.
        "roles.0"
      ])
      const text = JSON.stringify(body)
      for (const value of ["not-an-email", "1978-13-45", "555-0192", '"12345"', "blue"])
        expect(text).not.toContain(value)
    })

    it("names every invalid field of an update, and a repeated role", async () => {
      const created = await (await send("POST", "/beneficial-owners", owner())).json()
      const response = await send("PATCH", `/beneficial-owners/${created.id}`, {
        roles: ["UBO", "UBO"],
        ownershipPercentage: -1,
        personalInfo: { email: "nope", identifier: "1", birthDate: "yesterday" },
        kycStatus: "APPROVED"
      })
      expect(response.status).toBe(400)
      expect(fieldsOf(await response.json())).toEqual([
        "kycStatus",
        "ownershipPercentage",
        "personalInfo.birthDate",
        "personalInfo.email",
        "personalInfo.identifier",
        "roles"
      ])
      expect(await (await send("GET", `/beneficial-owners/${created.id}`)).json()).toEqual(created)
    })

    it("refuses an individual customer on customerId (400) and an unknown one (404 USER_NOT_FOUND)", async () => {
      const individual = await createCustomer({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })
      const refused = await send("POST", "/beneficial-owners", owner({ customerId: individual.id }))
      expect(refused.status).toBe(400)
      expect(fieldsOf(await refused.json())).toEqual(["customerId"])
      const unknown = await send(
        "POST",
        "/beneficial-owners",
        owner({ customerId: "Customer:00000000-0000-4000-8000-000000000000" })
      )
      expect(unknown.status).toBe(404)
      expect(await unknown.json()).toMatchObject({ code: "USER_NOT_FOUND" })
    })

    it("answers 404 for another platform's owner and customer, and lists none of its owners", async () => {
      const created = await (await send("POST", "/beneficial-owners", owner())).json()
      const other = api.otherPlatformBasic
      const got = await send("GET", `/beneficial-owners/${created.id}`, undefined, other)
      expect(got.status).toBe(404)
      expect(await got.json()).toMatchObject({ code: "NOT_FOUND", details: { beneficialOwnerId: created.id } })
      const patched = await send("PATCH", `/beneficial-owners/${created.id}`, { ownershipPercentage: 1 }, other)
      expect(patched.status).toBe(404)
      const posted = await send("POST", "/beneficial-owners", owner(), other)
      expect(posted.status).toBe(404)
      const listed = await (await send("GET", `/beneficial-owners?customerId=${businessId}`, undefined, other)).json()
      expect([listed.data, listed.totalCount]).toEqual([[], 0])
      expect(await (await send("GET", `/beneficial-owners/${created.id}`)).json()).toEqual(created)
    })

    it("requires customerId to list, and a well-formed owner id", async () => {
      const missing = await send("GET", "/beneficial-owners")
      expect(missing.status).toBe(400)
      expect(fieldsOf(await missing.json())).toEqual(["customerId"])
      const malformed = await send("GET", "/beneficial-owners/Customer:123")
      expect(malformed.status).toBe(400)
      expect(fieldsOf(await malformed.json())).toEqual(["beneficialOwnerId"])
    })

    it("requires MANAGE to create and update, VIEW to read", async () => {
      const viewer = await api.tokenWith(["VIEW"])
      const transactor = await api.tokenWith(["TRANSACT"])
      expect((await send("POST", "/beneficial-owners", owner(), viewer)).status).toBe(403)
      const created = await (await send("POST", "/beneficial-owners", owner())).json()
      expect((await send("PATCH", `/beneficial-owners/${created.id}`, { ownershipPercentage: 2 }, viewer)).status).toBe(
        403
      )
      expect((await send("GET", `/beneficial-owners/${created.id}`, undefined, viewer)).status).toBe(200)
      expect((await send("GET", `/beneficial-owners/${created.id}`, undefined, transactor)).status).toBe(403)
    })

    it("replays a creation sent again with its Idempotency-Key", async () => {
      const key = `owner-${crypto.randomUUID()}`
      const headers = { "idempotency-key": key }
      const body = JSON.stringify(owner())
      const first = await api.request(`${base}/beneficial-owners`, { method: "POST", body, headers })
      const again = await api.request(`${base}/beneficial-owners`, { method: "POST", body, headers })
      expect([first.status, again.status]).toEqual([201, 201])
      expect(await again.json()).toEqual(await first.json())
    })
  })
}
