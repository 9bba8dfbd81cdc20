import { expect, it } from "vitest"
import { base, describeOverHttp } from "../support/OverHttp.js"

const consent = (overrides: Record<string, unknown> = {}) => ({
  acceptedAt: "2026-05-01T12:00:00Z",
  ipAddress: "198.51.100.24",
  termsVersion: "V1",
  acceptanceMethod: "CHECKBOX",
  ...overrides
})

describeOverHttp("End User Terms consent on customers over HTTP", {}, (api) => {
  const post = (body: unknown) => api.request(`${base}/customers`, { method: "POST", body: JSON.stringify(body) })
  const individual = (extra: Record<string, unknown> = {}) => ({
    customerType: "INDIVIDUAL",
    platformCustomerId: `terms-${crypto.randomUUID()}`,
    fullName: "Ada Lovelace",
    ...extra
  })

  it("stores the consent to the current terms version and returns it on create, read and list", async () => {
    const terms = await (await api.request(`${base}/customers/end-user-terms`)).json()
    const created = await post(individual({ endUserTermsConsent: consent({ termsVersion: terms.version }) }))
    expect(created.status).toBe(201)
    const body = await created.json()
    const stored = {
      acceptedAt: "2026-05-01T12:00:00.000Z",
      ipAddress: "198.51.100.24",
      termsVersion: terms.version,
      acceptanceMethod: "CHECKBOX"
    }
    expect(body.endUserTermsConsent).toEqual(stored)
    expect((await (await api.request(`${base}/customers/${body.id}`)).json()).endUserTermsConsent).toEqual(stored)
    const listed = await api.request(`${base}/customers?platformCustomerId=${body.platformCustomerId}`)
    expect((await listed.json()).data[0].endUserTermsConsent).toEqual(stored)

    const business = await post({
      customerType: "BUSINESS",
      businessInfo: { legalName: "Engines Ltd" },
      endUserTermsConsent: consent({ acceptanceMethod: "CLICK_TO_ACCEPT" })
    })
    expect(business.status).toBe(201)
    expect((await business.json()).endUserTermsConsent).toMatchObject({ acceptanceMethod: "CLICK_TO_ACCEPT" })
  })

  it("answers 400 END_USER_TERMS_VERSION_NOT_FOUND for another version and creates nothing", async () => {
    const platformCustomerId = `terms-${crypto.randomUUID()}`
    const refused = await post(individual({ platformCustomerId, endUserTermsConsent: consent({ termsVersion: "V0" }) }))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      code: "END_USER_TERMS_VERSION_NOT_FOUND",
      reason: "No such End User Terms version: accept the current version V1",
      details: { field: "endUserTermsConsent.termsVersion", termsVersion: "V0", currentVersion: "V1" }
    })
    const listed = await api.request(`${base}/customers?platformCustomerId=${platformCustomerId}`)
    expect((await listed.json()).data).toEqual([])
  })

  it("replaces the consent on PATCH under the same version rule", async () => {
    const created = await (await post(individual())).json()
    expect(created.endUserTermsConsent).toBeUndefined()
    const patch = (body: unknown) =>
      api.request(`${base}/customers/${created.id}`, { method: "PATCH", body: JSON.stringify(body) })
    const stale = await patch({ customerType: "INDIVIDUAL", endUserTermsConsent: consent({ termsVersion: "V2" }) })
    expect(stale.status).toBe(400)
    expect((await stale.json()).code).toBe("END_USER_TERMS_VERSION_NOT_FOUND")
    const accepted = await patch({ customerType: "INDIVIDUAL", endUserTermsConsent: consent() })
    expect(accepted.status).toBe(200)
    expect((await accepted.json()).endUserTermsConsent).toMatchObject({ termsVersion: "V1" })
  })

  it("answers 400 INVALID_INPUT naming each missing or malformed consent field", async () => {
    const response = await post(
      individual({
        endUserTermsConsent: { termsVersion: "V1", ipAddress: "x".repeat(46), acceptanceMethod: "NOD" }
      })
    )
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe("INVALID_INPUT")
    const fields = body.details.errors.map((error: { field: string }) => error.field)
    expect(fields).toEqual(
      expect.arrayContaining([
        "endUserTermsConsent.acceptedAt",
        "endUserTermsConsent.ipAddress",
        "endUserTermsConsent.acceptanceMethod"
      ])
    )
  })
})

describeOverHttp(
  "End User Terms consent under the operator's own terms over HTTP",
  { endUserTerms: { version: "2026-05", url: "https://operator.example/terms/2026-05" } },
  (api) => {
    it("accepts only the version the deployment publishes (PAYRAIL_END_USER_TERMS_VERSION on the server)", async () => {
      const terms = await (await api.request(`${base}/customers/end-user-terms`)).json()
      expect(terms.version).toBe("2026-05")
      const post = (termsVersion: string) =>
        api.request(`${base}/customers`, {
          method: "POST",
          body: JSON.stringify({
            customerType: "INDIVIDUAL",
            fullName: "Grace Hopper",
            endUserTermsConsent: consent({ termsVersion })
          })
        })
      const stale = await post("V1")
      expect(stale.status).toBe(400)
      expect(await stale.json()).toMatchObject({
        code: "END_USER_TERMS_VERSION_NOT_FOUND",
        details: { termsVersion: "V1", currentVersion: "2026-05" }
      })
      const accepted = await post("2026-05")
      expect(accepted.status).toBe(201)
      expect((await accepted.json()).endUserTermsConsent.termsVersion).toBe("2026-05")
    })
  }
)
