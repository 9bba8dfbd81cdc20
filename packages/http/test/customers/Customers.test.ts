import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`customers over HTTP on ${adapter.name}`, () => {
    let api: Harness
    const harness = (options: Parameters<typeof makeHarness>[0] = {}) =>
      makeHarness({ ...options, storage: adapter.storage() })

    beforeAll(async () => {
      api = await harness()
    })
    afterAll(() => api.dispose())

    const post = (body: unknown, auth?: string) =>
      api.request(`${base}/customers`, { method: "POST", body: JSON.stringify(body), ...(auth ? { auth } : {}) })

    const individual = (overrides: Record<string, unknown> = {}) => ({
      customerType: "INDIVIDUAL",
      platformCustomerId: `user-${crypto.randomUUID()}`,
      email: "ada@example.com",
      fullName: "Ada Lovelace",
      birthDate: "1990-12-10",
      nationality: "GB",
      region: "US",
      ...overrides
    })

    describe("POST /customers", () => {
      it("creates an individual with an id, timestamps and the sandbox KYC outcome, never returning the identifier", async () => {
        const response = await post(individual({ identifier: "123-45-6789", idType: "SSN" }))
        expect(response.status).toBe(201)
        const body = await response.json()
        expect(body).toMatchObject({
          customerType: "INDIVIDUAL",
          fullName: "Ada Lovelace",
          kycStatus: "APPROVED",
          isDeleted: false
        })
        expect(body.id).toMatch(/^Customer:[0-9a-f-]{36}$/)
        expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        expect(body).not.toHaveProperty("identifier")
        expect(body).toHaveProperty("idType", "SSN")
      })

      it("gives every customer an UMA address on the platform's UMA domain, unique and kept by updates", async () => {
        const [a, b] = await Promise.all(
          [individual(), { customerType: "BUSINESS", businessInfo: { legalName: "Engines Ltd" } }].map((body) =>
            post(body).then((response) => response.json())
          )
        )
        const uuid = (id: string) => id.slice("Customer:".length)
        expect(a.umaAddress).toBe(`$${uuid(a.id)}@${api.platform.config.umaDomain}`)
        expect(b.umaAddress).toBe(`$${uuid(b.id)}@${api.platform.config.umaDomain}`)
        const patched = await api.request(`${base}/customers/${a.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Renamed" })
        })
        expect(await patched.json()).toMatchObject({ umaAddress: a.umaAddress })
      })

      it.each([
        ["001", "PENDING"],
        ["002", "REJECTED"],
        ["003", "UNVERIFIED"],
        ["999", "APPROVED"]
      ])("resolves a fullName ending in %s to %s on a platform with the stablecoin", async (suffix, status) => {
        const response = await post(individual({ fullName: `Test Person ${suffix}` }))
        expect((await response.json()).kycStatus).toBe(status)
      })

      it("creates a business as UNVERIFIED with its businessInfo", async () => {
        const response = await post({
          customerType: "BUSINESS",
          businessInfo: { legalName: "Engines Ltd", registrationNumber: "REG-004", country: "GB" },
          address: { line1: "1 Main St", postalCode: "94105", country: "US" }
        })
        expect(response.status).toBe(201)
        const body = await response.json()
        expect(body).toMatchObject({
          customerType: "BUSINESS",
          kybStatus: "UNVERIFIED",
          businessInfo: { legalName: "Engines Ltd" }
        })
        expect(body.platformCustomerId).toEqual(expect.any(String))
      })

      it("lists every invalid field with its constraint and never echoes the values", async () => {
        const response = await post(
          individual({ email: "not-an-email", birthDate: "1990-13-45", nationality: "XX", address: { line1: "x" } })
        )
        expect(response.status).toBe(400)
        const body = await response.json()
        expect(body.code).toBe("INVALID_INPUT")
        expect(typeof body.reason).toBe("string")
        const byField = Object.fromEntries(body.details.errors.map((error: { field: string }) => [error.field, error]))
        expect(Object.keys(byField).sort()).toEqual([
          "address.country",
          "address.postalCode",
          "birthDate",
          "email",
          "nationality"
        ])
        expect(byField.email.constraint).toMatchObject({ format: "email" })
        expect(byField.birthDate.constraint).toMatchObject({ format: "date" })
        expect(byField.nationality.constraint).toMatchObject({ format: "iso3166-1-alpha-2" })
        expect(byField["address.postalCode"].message).toBe("is required")
        const text = JSON.stringify(body)
        for (const value of ["not-an-email", "1990-13-45", '"XX"']) expect(text).not.toContain(value)
      })

      it("names the enum for an unknown customerType and the maxLength of a long name", async () => {
        const badType = await (await post({ customerType: "ROBOT" })).json()
        expect(badType.details.errors).toEqual([
          expect.objectContaining({ field: "customerType", constraint: { enum: ["INDIVIDUAL", "BUSINESS"] } })
        ])
        const longName = await (await post(individual({ fullName: "x".repeat(300) }))).json()
        expect(longName.details.errors).toEqual([
          expect.objectContaining({ field: "fullName", constraint: { maxLength: 255 } })
        ])
      })

      it("answers a duplicate platformCustomerId with 409 CONFLICT", async () => {
        const body = individual()
        expect((await post(body)).status).toBe(201)
        const duplicate = await post(body)
        expect(duplicate.status).toBe(409)
        expect(await duplicate.json()).toMatchObject({
          code: "CONFLICT",
          details: { platformCustomerId: body.platformCustomerId }
        })
      })

      it("lets exactly one of 10 concurrent creates with one platformCustomerId succeed", async () => {
        const body = individual()
        const statuses = await Promise.all(
          Array.from({ length: 10 }, () => post(body).then((response) => response.status))
        )
        expect(statuses.filter((status) => status === 201)).toHaveLength(1)
        expect(statuses.filter((status) => status === 409)).toHaveLength(9)
      })

      it("takes a chosen UMA address in any letter case, stores it in lowercase and finds the customer by it", async () => {
        const name = `ada.${crypto.randomUUID().slice(0, 8)}`
        const created = await post(individual({ umaAddress: `$${name.toUpperCase()}@Pay.Example.com` }))
        expect(created.status).toBe(201)
        const customer = await created.json()
        expect(customer.umaAddress).toBe(`$${name}@pay.example.com`)
        const found = await api.request(
          `${base}/customers?umaAddress=${encodeURIComponent(`$${name}@PAY.example.com`)}`
        )
        expect(found.status).toBe(200)
        const page = await found.json()
        expect(page.data.map((one: { id: string }) => one.id)).toEqual([customer.id])
        expect(page.totalCount).toBe(1)
        const business = await post({
          customerType: "BUSINESS",
          businessInfo: { legalName: "Engines Ltd" },
          umaAddress: `$${name}.ltd@pay.example.com`
        })
        expect(await business.json()).toMatchObject({ umaAddress: `$${name}.ltd@pay.example.com` })
      })

      it("keeps the reference's currencies and countryOfIssuance, replaces currencies on PATCH and filters by currency", async () => {
        const marker = `cur-${crypto.randomUUID()}`
        const created = await post(
          individual({
            platformCustomerId: `${marker}-a`,
            currencies: ["USD", "EUR"],
            idType: "SSN",
            identifier: "123-45-6789",
            countryOfIssuance: "US"
          })
        )
        expect(created.status).toBe(201)
        const customer = await created.json()
        expect(customer).toMatchObject({ currencies: ["USD", "EUR"], countryOfIssuance: "US" })
        const other = await (await post(individual({ platformCustomerId: `${marker}-b`, currencies: ["MXN"] }))).json()
        const withCurrency = async (currency: string) => {
          const response = await api.request(`${base}/customers?currency=${currency}&limit=100`)
          expect(response.status).toBe(200)
          const page = await response.json()
          return page.data
            .map((one: { id: string }) => one.id)
            .filter((id: string) => id === customer.id || id === other.id)
        }
        expect(await withCurrency("EUR")).toEqual([customer.id])
        expect(await withCurrency("MXN")).toEqual([other.id])
        const patched = await api.request(`${base}/customers/${customer.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "INDIVIDUAL", currencies: ["MXN"] })
        })
        expect(await patched.json()).toMatchObject({ currencies: ["MXN"], countryOfIssuance: "US" })
        expect(await withCurrency("EUR")).toEqual([])
        expect(new Set(await withCurrency("MXN"))).toEqual(new Set([customer.id, other.id]))
        for (const invalid of [{ currencies: ["DOLLARS"] }, { currencies: "USD" }, { countryOfIssuance: "MX" }]) {
          const refused = await post(individual(invalid))
          expect(refused.status).toBe(400)
          expect((await refused.json()).details.errors.map((error: { field: string }) => error.field)).toEqual([
            expect.stringMatching(/^(currencies|countryOfIssuance)/)
          ])
        }
        expect((await api.request(`${base}/customers?currency=DOLLARS`)).status).toBe(400)
      })

      it("answers an UMA address another live customer has with 409 UMA_ADDRESS_EXISTS, one free after its delete", async () => {
        const address = `$grace.${crypto.randomUUID().slice(0, 8)}@pay.example.com`
        const first = await (await post(individual({ umaAddress: address }))).json()
        const duplicate = await post(individual({ umaAddress: address.toUpperCase() }))
        expect(duplicate.status).toBe(409)
        expect(await duplicate.json()).toEqual({
          status: 409,
          code: "UMA_ADDRESS_EXISTS",
          message: "Another customer of this platform has this UMA address",
          reason: "Another customer of this platform has this UMA address",
          details: { rule: "uma_address_unique", umaAddress: address }
        })
        expect((await api.request(`${base}/customers/${first.id}`, { method: "DELETE" })).status).toBe(200)
        const reused = await post(individual({ umaAddress: address }))
        expect(reused.status).toBe(201)
        const found = await api.request(
          `${base}/customers?isIncludingDeleted=true&umaAddress=${encodeURIComponent(address)}`
        )
        expect((await found.json()).totalCount).toBe(2)
      })

      it("lets exactly one of 10 concurrent creates with one UMA address succeed", async () => {
        const address = `$race.${crypto.randomUUID().slice(0, 8)}@pay.example.com`
        const responses = await Promise.all(Array.from({ length: 10 }, () => post(individual({ umaAddress: address }))))
        const statuses = responses.map((response) => response.status)
        expect(statuses.filter((status) => status === 201)).toHaveLength(1)
        expect(statuses.filter((status) => status === 409)).toHaveLength(9)
        for (const response of responses.filter((one) => one.status === 409)) {
          expect((await response.json()).code).toBe("UMA_ADDRESS_EXISTS")
        }
      })

      it("refuses a malformed UMA address on create and in the list filter, and any UMA address in a PATCH", async () => {
        for (const umaAddress of ["ada@example.com", "$@example.com", "$ada@localhost", `$${"a".repeat(65)}@x.io`, 7]) {
          const refused = await post(individual({ umaAddress }))
          expect(refused.status).toBe(400)
          const body = await refused.json()
          expect(body.code).toBe("INVALID_INPUT")
          expect(body.details.errors.map((error: { field: string }) => error.field)).toEqual(["umaAddress"])
        }
        const filter = await api.request(`${base}/customers?umaAddress=${encodeURIComponent("not an address")}`)
        expect(filter.status).toBe(400)
        expect((await filter.json()).details.errors.map((error: { field: string }) => error.field)).toEqual([
          "umaAddress"
        ])
        const customer = await (await post(individual())).json()
        const patched = await api.request(`${base}/customers/${customer.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "INDIVIDUAL", umaAddress: "$new@pay.example.com" })
        })
        expect(patched.status).toBe(400)
        const unchanged = await (await api.request(`${base}/customers/${customer.id}`)).json()
        expect(unchanged.umaAddress).toBe(customer.umaAddress)
      })

      it("rejects malformed JSON, a wrong content type and an empty body with the error body", async () => {
        const malformed = await api.request(`${base}/customers`, { method: "POST", body: '{"customerType":' })
        expect(malformed.status).toBe(400)
        expect(await malformed.json()).toMatchObject({ code: "INVALID_INPUT" })
        const wrongType = await api.request(`${base}/customers`, {
          method: "POST",
          body: "customerType=INDIVIDUAL",
          headers: { "content-type": "application/x-www-form-urlencoded" }
        })
        expect(wrongType.status).toBe(415)
        expect(await wrongType.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" })
        const empty = await api.request(`${base}/customers`, {
          method: "POST",
          headers: { "content-type": "application/json" }
        })
        expect(empty.status).toBe(400)
        expect(await empty.json()).toMatchObject({ code: "INVALID_INPUT" })
      })

      it("rejects a body over 1 MiB with 413", async () => {
        const body = JSON.stringify(individual({ fullName: "x".repeat(2 * 1024 * 1024) }))
        const response = await api.request(`${base}/customers`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "content-length": String(body.length) }
        })
        expect(response.status).toBe(413)
        expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
      })
    })

    describe("authentication and permissions", () => {
      it("answers missing and wrong credentials with 401 UNAUTHORIZED and a Basic challenge", async () => {
        for (const auth of [null, "Basic " + btoa("pk_nope:sk_nope"), api.basic.slice(0, -4) + "AAAA", "Bearer abc"]) {
          const response = await api.request(`${base}/customers`, { auth })
          expect(response.status).toBe(401)
          expect(response.headers.get("www-authenticate")).toContain("Basic")
          const body = await response.json()
          expect(body).toEqual({ status: 401, code: "UNAUTHORIZED", message: body.reason, reason: expect.any(String) })
        }
      })

      it("requires MANAGE to create and VIEW to read", async () => {
        const viewOnly = await api.tokenWith(["VIEW"])
        const denied = await post(individual(), viewOnly)
        expect(denied.status).toBe(403)
        expect(await denied.json()).toMatchObject({ code: "FORBIDDEN", details: { requiredPermission: "MANAGE" } })
        expect((await api.request(`${base}/customers`, { auth: viewOnly })).status).toBe(200)
        const manageOnly = await api.tokenWith(["MANAGE"])
        expect((await api.request(`${base}/customers`, { auth: manageOnly })).status).toBe(403)
      })
    })

    describe("GET and PATCH /customers/{id}", () => {
      it("reads a customer, and answers 404 for another platform's customer and 400 for a malformed id", async () => {
        const created = await (await post(individual())).json()
        const found = await api.request(`${base}/customers/${created.id}`)
        expect(found.status).toBe(200)
        expect(await found.json()).toEqual(created)
        const foreign = await api.request(`${base}/customers/${created.id}`, { auth: api.otherPlatformBasic })
        expect(foreign.status).toBe(404)
        expect(await foreign.json()).toMatchObject({ code: "USER_NOT_FOUND" })
        const malformed = await api.request(`${base}/customers/not-an-id`)
        expect(malformed.status).toBe(400)
        expect((await malformed.json()).details.errors).toEqual([expect.objectContaining({ field: "customerId" })])
      })

      it("updates the given fields, keeps the others and the KYC status, and bumps updatedAt", async () => {
        const created = await (await post(individual({ fullName: "Someone 002" }))).json()
        const response = await api.request(`${base}/customers/${created.id}`, {
          method: "PATCH",
          body: JSON.stringify({
            customerType: "INDIVIDUAL",
            fullName: "Renamed 999",
            address: { line1: "2 Side St", postalCode: "10001", country: "US" }
          })
        })
        expect(response.status).toBe(200)
        const updated = await response.json()
        expect(updated).toMatchObject({
          fullName: "Renamed 999",
          email: created.email,
          kycStatus: "REJECTED",
          address: { line1: "2 Side St" }
        })
        expect(updated.createdAt).toBe(created.createdAt)
        expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt))
        const read = await (await api.request(`${base}/customers/${created.id}`)).json()
        expect(read).toEqual(updated)
      })

      it("rejects a PATCH whose customerType differs from the customer's", async () => {
        const created = await (await post(individual())).json()
        const response = await api.request(`${base}/customers/${created.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "BUSINESS", businessInfo: { legalName: "Nope" } })
        })
        expect(response.status).toBe(400)
        expect((await response.json()).details.errors).toEqual([expect.objectContaining({ field: "customerType" })])
      })

      it("changes email and phoneNumber in separate PATCHes only, changing nothing when both come in one", async () => {
        const created = await (await post(individual())).json()
        const both = await api.request(`${base}/customers/${created.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "INDIVIDUAL", email: "both@example.com", phoneNumber: "+14155550111" })
        })
        expect(both.status).toBe(400)
        expect(await both.json()).toMatchObject({
          code: "INVALID_INPUT",
          details: { errors: [expect.objectContaining({ field: "phoneNumber" })] }
        })
        const unchanged = await (await api.request(`${base}/customers/${created.id}`)).json()
        expect(unchanged).toMatchObject({ email: created.email, updatedAt: created.updatedAt })
        expect(unchanged).not.toHaveProperty("phoneNumber")
      })

      // Created without an email: its wallet has no EMAIL_OTP credential, so an email change needs no signed retry.
      it("keeps both fields when two PATCHes of different fields race", async () => {
        const created = await (await post(individual({ email: undefined }))).json()
        const patch = (body: unknown) =>
          api.request(`${base}/customers/${created.id}`, { method: "PATCH", body: JSON.stringify(body) })
        const results = await Promise.all([
          patch({ customerType: "INDIVIDUAL", email: "new@example.com" }),
          patch({ customerType: "INDIVIDUAL", phoneNumber: "+14155550100" })
        ])
        expect(results.map((response) => response.status)).toEqual([200, 200])
        const read = await (await api.request(`${base}/customers/${created.id}`)).json()
        expect(read).toMatchObject({ email: "new@example.com", phoneNumber: "+14155550100" })
      })
      it("applies all of 16 concurrent PATCHes of one customer", async () => {
        const created = await (await post(individual({ email: undefined }))).json()
        const bodies = Array.from({ length: 16 }, (_, index) =>
          index % 2 === 0
            ? { customerType: "INDIVIDUAL", email: `racer${index}@example.com` }
            : { customerType: "INDIVIDUAL", phoneNumber: `+1415555${String(index).padStart(4, "0")}` }
        )
        const results = await Promise.all(
          bodies.map((body) =>
            api.request(`${base}/customers/${created.id}`, { method: "PATCH", body: JSON.stringify(body) })
          )
        )
        expect(results.map((response) => response.status)).toEqual(bodies.map(() => 200))
        const read = await (await api.request(`${base}/customers/${created.id}`)).json()
        expect(bodies.map((body) => body.email)).toContain(read.email)
        expect(bodies.map((body) => body.phoneNumber)).toContain(read.phoneNumber)
      })
    })

    describe("GET /customers", () => {
      it("pages newest first with limit and cursor, counting every match", async () => {
        const scoped = await harness()
        try {
          for (let index = 0; index < 5; index++) {
            await scoped.request(`${base}/customers`, {
              method: "POST",
              body: JSON.stringify(individual({ fullName: `Person ${index}` }))
            })
          }
          const first = await (await scoped.request(`${base}/customers?limit=3`)).json()
          expect(first).toMatchObject({ hasMore: true, totalCount: 5 })
          expect(first.data).toHaveLength(3)
          const second = await (
            await scoped.request(`${base}/customers?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`)
          ).json()
          expect(second).toMatchObject({ hasMore: false, totalCount: 5 })
          expect(second).not.toHaveProperty("nextCursor")
          const names = [...first.data, ...second.data].map((customer: { fullName: string }) => customer.fullName)
          expect(new Set(names).size).toBe(5)
          const filtered = await (await scoped.request(`${base}/customers?customerType=BUSINESS`)).json()
          expect(filtered).toMatchObject({ data: [], hasMore: false, totalCount: 0 })
        } finally {
          await scoped.dispose()
        }
      })

      it("rejects a limit outside 1-100, a bad filter and a forged cursor with field errors", async () => {
        const limit = await (await api.request(`${base}/customers?limit=500`)).json()
        expect(limit.details.errors).toEqual([expect.objectContaining({ field: "limit" })])
        const filter = await (await api.request(`${base}/customers?customerType=ROBOT&createdAfter=yesterday`)).json()
        expect(filter.details.errors.map((error: { field: string }) => error.field).sort()).toEqual([
          "createdAfter",
          "customerType"
        ])
        const cursor = await api.request(`${base}/customers?cursor=forged`)
        expect(cursor.status).toBe(400)
        expect((await cursor.json()).details.errors).toEqual([expect.objectContaining({ field: "cursor" })])
      })
    })

    describe("routing, documents and prefix", () => {
      it("answers an unknown route with 404 and a wrong method with 405 and Allow", async () => {
        const missing = await api.request(`${base}/nothing-here`)
        expect(missing.status).toBe(404)
        expect(await missing.json()).toMatchObject({ code: "NOT_FOUND" })
        const wrongMethod = await api.request(`${base}/customers`, { method: "DELETE" })
        expect(wrongMethod.status).toBe(405)
        expect(wrongMethod.headers.get("allow")).toBe("POST, GET")
        expect(await wrongMethod.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" })
      })

      it("serves the OpenAPI document without the built-in decode error, and a reference page", async () => {
        const spec = await (await api.request("/openapi.json", { auth: null })).json()
        expect(Object.keys(spec.paths)).toEqual(
          expect.arrayContaining([`${base}/customers`, `${base}/customers/{customerId}`])
        )
        expect(spec.components.securitySchemes.BasicAuth).toMatchObject({ type: "http", scheme: "basic" })
        expect(JSON.stringify(spec)).not.toContain("HttpApiDecodeError")
        const docs = await api.request("/docs", { auth: null })
        expect(docs.status).toBe(200)
        expect(docs.headers.get("content-type")).toContain("text/html")
      })

      it("answers health without credentials", async () => {
        expect(await (await api.request("/health", { auth: null })).json()).toEqual({ status: "ok" })
        expect(await (await api.request("/ready", { auth: null })).json()).toEqual({ status: "ok" })
      })

      it("mounts under a prefix", async () => {
        const mounted = await harness({ prefix: "/payments/" })
        try {
          expect((await mounted.request(`/payments${base}/customers`)).status).toBe(200)
          expect((await mounted.request(`${base}/customers`)).status).toBe(404)
          expect((await mounted.request("/payments/health", { auth: null })).status).toBe(200)
        } finally {
          await mounted.dispose()
        }
      })
    })
  })
}
