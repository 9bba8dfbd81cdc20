import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

// A minimal, well-formed PDF: what the document service sniffs by its first bytes.
const pdf = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)

describe("the hosted verification page", () => {
  let api: Harness
  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  const business = async (registrationNumber = "REG-003") => {
    const response = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "BUSINESS", businessInfo: { legalName: "Engines Ltd", registrationNumber } })
    })
    return (await response.json()) as { readonly id: string }
  }

  const linkFor = async (customerId: string, body: Record<string, unknown> = {}) => {
    const response = await api.request(`${base}/customers/${customerId}/kyc-link`, {
      method: "POST",
      body: JSON.stringify(body)
    })
    return new URL((await response.json()).kycUrl).pathname
  }

  const page = (path: string, init: RequestInit = {}) => api.request(path, { ...init, auth: null })
  // A multipart body as a browser sends it (the harness would otherwise label a body JSON).
  const multipart = async (path: string, data: FormData) => {
    const encoded = new Request("http://encoder.test", { method: "POST", body: data })
    return page(path, {
      method: "POST",
      body: new Uint8Array(await encoded.arrayBuffer()),
      headers: { "content-type": encoded.headers.get("content-type") ?? "" },
      redirect: "manual"
    })
  }
  const form = (path: string, fields: Record<string, string | ReadonlyArray<string>>) => {
    const body = new URLSearchParams()
    for (const [key, value] of Object.entries(fields))
      for (const one of typeof value === "string" ? [value] : value) body.append(key, one)
    return page(path, {
      method: "POST",
      body: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual"
    })
  }

  it("serves the page with a strict CSP, no-store, no-referrer, and what is missing in errors[] terms", async () => {
    const customer = await business()
    const path = await linkFor(customer.id)
    const response = await page(path)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
    const html = await response.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/MISSING_/)
    expect(html).not.toMatch(/<script|https?:\/\/(?!127)/)
  })

  it("saves fields, adds an owner without echoing the identifier, uploads a PDF, and shows what a submission still lacks", async () => {
    const customer = await business()
    const path = await linkFor(customer.id, { redirectUri: "https://platform.example/done" })
    const saved = await form(`${path}/fields`, {
      "businessInfo.legalName": "Engines Ltd",
      "businessInfo.registrationNumber": "REG-003",
      "businessInfo.taxId": "12-3456789",
      "businessInfo.country": "US",
      "address.line1": "1 Main St",
      "address.postalCode": "94105",
      "address.country": "US"
    })
    expect(saved.status).toBe(303)
    const bad = await form(`${path}/fields`, { "address.country": "Nowhere" })
    expect(bad.status).toBe(400)
    const huge = await form(`${path}/fields`, { "businessInfo.taxId": "x".repeat(70 * 1024) })
    expect(huge.status).toBe(400)
    expect(await bad.text()).toContain('href="#address.country"')
    const owner = await form(`${path}/owners`, {
      roles: ["UBO", "CONTROL_PERSON"],
      ownershipPercentage: "60",
      "personalInfo.firstName": "Ada",
      "personalInfo.lastName": "Lovelace",
      "personalInfo.birthDate": "1980-01-02",
      "personalInfo.nationality": "US",
      "personalInfo.idType": "SSN",
      "personalInfo.identifier": "123-45-6789",
      "personalInfo.address.line1": "2 Main St",
      "personalInfo.address.postalCode": "94105",
      "personalInfo.address.country": "US"
    })
    expect(owner.status).toBe(303)
    const upload = new FormData()
    upload.set("documentHolder", customer.id)
    upload.set("documentType", "CERTIFICATE_OF_INCORPORATION")
    upload.set("country", "US")
    upload.set("file", new Blob([pdf], { type: "application/pdf" }), "certificate.pdf")
    const uploaded = await multipart(`${path}/documents`, upload)
    expect(uploaded.status).toBe(303)
    const wrong = new FormData()
    wrong.set("documentHolder", customer.id)
    wrong.set("documentType", "PASSPORT")
    wrong.set("country", "US")
    wrong.set("file", new Blob(["just text"], { type: "application/pdf" }), "passport.pdf")
    const refused = await multipart(`${path}/documents`, wrong)
    expect(refused.status).toBe(415)
    // A document the sandbox's review refuses (documentNumber suffix 203: EXPIRED) is shown as an error on the page.
    const expired = new FormData()
    expired.set("documentHolder", customer.id)
    expired.set("documentType", "CERTIFICATE_OF_INCORPORATION")
    expired.set("country", "US")
    expired.set("documentNumber", "CERT-203")
    expired.set("file", new Blob([pdf], { type: "application/pdf" }), "expired.pdf")
    const rejected = await multipart(`${path}/documents`, expired)
    expect(rejected.status).toBe(400)
    expect(await rejected.text()).toContain("The document has expired")
    const shown = await (await page(path)).text()
    expect(shown).toContain("certificate.pdf")
    expect(shown).toContain("Lovelace")
    expect(shown).not.toContain("123-45-6789")

    // The owner has no identity document and incorporatedOn is missing: the submission is recorded with its
    // errors, shown on the page, and the link stays usable to fix them (the Chromium test completes this packet).
    const submitted = await form(`${path}/submit`, {})
    expect(submitted.status).toBe(400)
    const listed = await submitted.text()
    expect(listed).toContain(
      "An identity document (passport, driver&#39;s license or national id) of the beneficial owner"
    )
    expect((await page(path)).status).toBe(200)
    const recorded = await (await api.request(`${base}/verifications?customerId=${customer.id}`)).json()
    expect(recorded.data.map((each: { verificationStatus: string }) => each.verificationStatus)).toEqual([
      "RESOLVE_ERRORS"
    ])
  })

  // An individual whose name ends in `suffix`, with every field and a passport given through the page.
  const completeIndividual = async (suffix: string) => {
    const fullName = `Mary Somerville ${suffix}`
    const created = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName, identifier: "987-65-4321", idType: "SSN" })
    })
    const customer = (await created.json()) as { readonly id: string }
    const path = await linkFor(customer.id)
    const before = await (await page(path)).text()
    expect(before).toContain("MISSING_FIELD (birthDate)")
    expect(before).not.toContain("987-65-4321")
    const saved = await form(`${path}/fields`, {
      fullName,
      birthDate: "1990-12-26",
      nationality: "GB",
      "address.line1": "3 High St",
      "address.postalCode": "EH1 1AA",
      "address.country": "GB"
    })
    expect(saved.status).toBe(303)
    const passport = new FormData()
    passport.set("documentHolder", customer.id)
    passport.set("documentType", "PASSPORT")
    passport.set("country", "GB")
    passport.set("file", new Blob([pdf], { type: "application/pdf" }), "passport.pdf")
    expect((await multipart(`${path}/documents`, passport)).status).toBe(303)
    expect(await (await page(path)).text()).toContain("Nothing is missing")
    return { customer, path }
  }

  it("lets an individual complete their fields and identity document, then thanks them (no redirectUri)", async () => {
    // 001: a complete packet goes to manual review, which ends the hosted flow.
    const { customer, path } = await completeIndividual("001")
    const thanked = await form(`${path}/submit`, {})
    expect(thanked.status).toBe(200)
    expect(await thanked.text()).toContain("Thank you")
    const listed = await (await api.request(`${base}/verifications?customerId=${customer.id}`)).json()
    expect(listed.data.map((each: { verificationStatus: string }) => each.verificationStatus)).toEqual([
      "PENDING_MANUAL_REVIEW"
    ])
    expect((await page(path)).status).toBe(410)
  })

  it("shows the sandbox's poor-quality finding (003) on the page and keeps the link usable for a new document", async () => {
    const { customer, path } = await completeIndividual("003")
    const submitted = await form(`${path}/submit`, {})
    expect(submitted.status).toBe(400)
    expect(await submitted.text()).toMatch(/quality/i)
    expect((await page(path)).status).toBe(200)
    const listed = await (await api.request(`${base}/verifications?customerId=${customer.id}`)).json()
    expect(listed.data[0]).toMatchObject({
      verificationStatus: "RESOLVE_ERRORS",
      errors: [{ type: "POOR_QUALITY_DOCUMENT" }]
    })
  })

  it("lets exactly one of two racing submits through; the other gets 410", async () => {
    const { customer, path } = await completeIndividual("001")
    const [a, b] = await Promise.all([form(`${path}/submit`, {}), form(`${path}/submit`, {})])
    expect([a.status, b.status].sort()).toEqual([200, 410])
    // The loser's submission was rolled back with it: one verification.
    const listed = await (await api.request(`${base}/verifications?customerId=${customer.id}`)).json()
    expect(listed.data).toHaveLength(1)
  })

  it("answers 410 once the customer is deleted, showing nothing of it", async () => {
    const customer = await business()
    const path = await linkFor(customer.id)
    expect((await api.request(`${base}/customers/${customer.id}`, { method: "DELETE" })).status).toBe(200)
    const response = await page(path)
    expect(response.status).toBe(410)
    expect(await response.text()).not.toContain("Engines")
  })

  it("answers 404 for an unknown link and 410 for an expired one", async () => {
    expect((await page("/verify/kyc_nope")).status).toBe(404)
    const customer = await business()
    const path = await linkFor(customer.id)
    const advanced = await api.request(`${base}/sandbox/clock/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: 24 * 3600 + 1 })
    })
    expect(advanced.status).toBe(200)
    const expired = await page(path)
    expect(expired.status).toBe(410)
    expect(await expired.text()).toContain("expired")
  })
})
