import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

describe("POST /customers/{customerId}/kyc-link", () => {
  let api: Harness
  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  const createBusiness = async () => {
    const response = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "BUSINESS", businessInfo: { legalName: "Engines Ltd" } })
    })
    return (await response.json()) as { readonly id: string }
  }

  const link = (customerId: string, body: unknown = {}, auth?: string) =>
    api.request(`${base}/customers/${customerId}/kyc-link`, {
      method: "POST",
      body: JSON.stringify(body),
      ...(auth === undefined ? {} : { auth })
    })

  it("answers 201 with an absolute, single-secret kycUrl outside the API's base path, expiring in 24 hours", async () => {
    const customer = await createBusiness()
    const response = await link(customer.id, { redirectUri: "https://platform.example/done?step=2" })
    expect(response.status).toBe(201)
    const body = await response.json()
    expect(body.provider).toBe("PAYRAIL")
    expect(body.kycUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/verify\/kyc_[A-Za-z0-9_-]{43}$/)
    expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000)
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000)
    const again = await (await link(customer.id)).json()
    expect(again.kycUrl).not.toBe(body.kycUrl)
  })

  it("refuses a redirectUri that is not an absolute http(s) URL, and unknown fields, with 400 naming the field", async () => {
    const customer = await createBusiness()
    for (const redirectUri of ["/relative", "javascript:alert(1)", "ftp://example.com/x", "not a url"]) {
      const response = await link(customer.id, { redirectUri })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe("INVALID_INPUT")
      expect(body.details.errors[0].field).toBe("redirectUri")
    }
    expect((await link(customer.id, { redirect: "https://x.example" })).status).toBe(400)
  })

  it("answers 404 for an unknown customer and for another platform's customer", async () => {
    const customer = await createBusiness()
    const unknown = await link("Customer:00000000-0000-4000-8000-000000000000")
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).code).toBe("USER_NOT_FOUND")
    expect((await link(customer.id, {}, api.otherPlatformBasic)).status).toBe(404)
  })

  it("answers 410 CUSTOMER_DELETED for a deleted customer", async () => {
    const customer = await createBusiness()
    expect((await api.request(`${base}/customers/${customer.id}`, { method: "DELETE" })).status).toBe(200)
    const response = await link(customer.id)
    expect(response.status).toBe(410)
    expect((await response.json()).code).toBe("CUSTOMER_DELETED")
  })

  it("answers 409 while the customer's region verifies contacts and its email is not verified", async () => {
    const created = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", region: "DE", email: "ada@example.com" })
    })
    const customer = await created.json()
    expect(customer.contactVerification).toEqual({ email: "PENDING" })
    const response = await link(customer.id)
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({
      code: "CONTACT_VERIFICATION_INCOMPLETE",
      details: { unverified: ["email"] }
    })
  })

  it("needs the MANAGE permission", async () => {
    const customer = await createBusiness()
    const viewer = await api.tokenWith(["VIEW"])
    expect((await link(customer.id, {}, viewer)).status).toBe(403)
  })
})
