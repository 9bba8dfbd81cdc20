import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

// Every due-diligence field of an individual, with the reference's names and values.
const individualEdd = {
  sourceOfFundsCategories: ["SALARY", "OTHER"],
  sourceOfFundsOtherDescription: "Contest winnings",
  sourceOfWealthCategories: ["SALARY", "INVESTMENTS"],
  sourceOfWealthOtherDescription: "Royalty income from published works",
  purposeOfAccount: "OTHER",
  purposeOfAccountOtherDescription: "Household budgeting between spouses",
  expectedMonthlyTransactionCount: "COUNT_10_TO_100",
  expectedMonthlyTransactionVolume: "VOLUME_10K_TO_100K",
  annualIncomeRange: "RANGE_100K_250K",
  netWorthRange: "RANGE_500K_1M",
  pepStatus: "NONE"
}

// Every field of the reference's businessInfo beside legalName.
const businessEdd = {
  doingBusinessAs: "Acme",
  country: "US",
  registrationNumber: "5523041",
  incorporatedOn: "2018-03-14",
  entityType: "LLC",
  taxId: "47-1234567",
  countriesOfOperation: ["US", "CA"],
  businessType: "PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES",
  purposeOfAccount: "OTHER",
  sourceOfFunds: "Funds derived from customer payments for software services",
  expectedMonthlyTransactionCount: "COUNT_100_TO_500",
  expectedMonthlyTransactionVolume: "VOLUME_100K_TO_1M",
  expectedRecipientJurisdictions: ["US", "MX"],
  naicsCode: "541511",
  sourceOfFundsCategories: ["OPERATING_REVENUE", "OTHER"],
  sourceOfFundsOtherDescription: "Proceeds from a legal settlement",
  purposeOfAccountOtherDescription: "Escrow for equipment leases",
  expectedCounterpartyCountries: ["US", "GB"],
  primaryContactFirstName: "Jane",
  primaryContactLastName: "Smith"
}

interface FieldErrorBody {
  readonly field: string
  readonly constraint?: Record<string, unknown>
}

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`customer due-diligence fields over HTTP on ${adapter.name}`, () => {
    let api: Harness

    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
    })
    afterAll(() => api.dispose())

    const post = (body: unknown) => api.request(`${base}/customers`, { method: "POST", body: JSON.stringify(body) })
    const patch = (id: string, body: unknown) =>
      api.request(`${base}/customers/${id}`, { method: "PATCH", body: JSON.stringify(body) })
    const get = async (id: string) => (await api.request(`${base}/customers/${id}`)).json()

    const individual = (overrides: Record<string, unknown> = {}) => ({
      customerType: "INDIVIDUAL",
      platformCustomerId: `user-${crypto.randomUUID()}`,
      fullName: "Ada Lovelace",
      ...overrides
    })
    const business = (businessInfo: Record<string, unknown> = {}) => ({
      customerType: "BUSINESS",
      platformCustomerId: `biz-${crypto.randomUUID()}`,
      businessInfo: { legalName: "Acme Corporation, Inc.", ...businessInfo }
    })

    const fieldsOf = async (response: Response): Promise<ReadonlyArray<FieldErrorBody>> => {
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe("INVALID_INPUT")
      return body.details.errors
    }

    it("creates an individual with every due-diligence field and returns them on 201 and on GET", async () => {
      const response = await post(individual(individualEdd))
      expect(response.status).toBe(201)
      const created = await response.json()
      expect(created).toMatchObject({ customerType: "INDIVIDUAL", ...individualEdd })
      const read = await get(created.id)
      expect(read).toMatchObject(individualEdd)
      expect(read).toEqual(created)
    })

    it("creates a business with every businessInfo field and returns them on 201 and on GET", async () => {
      const response = await post(business(businessEdd))
      expect(response.status).toBe(201)
      const created = await response.json()
      expect(created.businessInfo).toEqual({ legalName: "Acme Corporation, Inc.", ...businessEdd })
      expect(await get(created.id)).toEqual(created)
    })

    it("replaces the individual fields a PATCH gives, a list as a whole, and keeps the others", async () => {
      const created = await (await post(individual(individualEdd))).json()
      const response = await patch(created.id, {
        customerType: "INDIVIDUAL",
        sourceOfFundsCategories: ["PENSION"],
        pepStatus: "FOREIGN"
      })
      expect(response.status).toBe(200)
      const updated = await response.json()
      expect(updated).toMatchObject({ ...individualEdd, sourceOfFundsCategories: ["PENSION"], pepStatus: "FOREIGN" })
      expect(await get(created.id)).toEqual(updated)
    })

    it("replaces the businessInfo fields a PATCH gives, a list as a whole, and keeps the others", async () => {
      const created = await (await post(business(businessEdd))).json()
      const response = await patch(created.id, {
        customerType: "BUSINESS",
        businessInfo: { naicsCode: "52", countriesOfOperation: ["DE"], businessType: "INFORMATION" }
      })
      expect(response.status).toBe(200)
      const updated = await response.json()
      expect(updated.businessInfo).toEqual({
        legalName: "Acme Corporation, Inc.",
        ...businessEdd,
        naicsCode: "52",
        countriesOfOperation: ["DE"],
        businessType: "INFORMATION"
      })
      expect(await get(created.id)).toEqual(updated)
    })

    it("adds due-diligence fields by PATCH to a customer created without them", async () => {
      const created = await (await post(business())).json()
      const updated = await (
        await patch(created.id, { customerType: "BUSINESS", businessInfo: { primaryContactFirstName: "Jane" } })
      ).json()
      expect(updated.businessInfo).toEqual({ legalName: "Acme Corporation, Inc.", primaryContactFirstName: "Jane" })
    })

    it("refuses an unknown enum value with 400 INVALID_INPUT naming the field and its values", async () => {
      const errors = await fieldsOf(await post(individual({ pepStatus: "MAYBE" })))
      expect(errors).toEqual([
        expect.objectContaining({
          field: "pepStatus",
          constraint: { enum: ["NONE", "DOMESTIC", "FOREIGN", "HIO", "FAMILY_OR_ASSOCIATE"] }
        })
      ])
      const listed = await fieldsOf(await post(individual({ sourceOfWealthCategories: ["SALARY", "LOTTERY"] })))
      expect(listed).toEqual([expect.objectContaining({ field: "sourceOfWealthCategories.1" })])
      const businessType = await fieldsOf(await post(business({ businessType: "SPACE_MINING" })))
      expect(businessType).toEqual([expect.objectContaining({ field: "businessInfo.businessType" })])
    })

    it("refuses a naicsCode of 7 digits or of letters, naming businessInfo.naicsCode and its pattern", async () => {
      for (const naicsCode of ["5415110", "5", "54A"]) {
        const errors = await fieldsOf(await post(business({ naicsCode })))
        expect(errors).toEqual([
          expect.objectContaining({ field: "businessInfo.naicsCode", constraint: { pattern: "^\\d{2,6}$" } })
        ])
      }
    })

    it("refuses an OtherDescription over 500 characters or empty, on create and on PATCH", async () => {
      const long = "x".repeat(501)
      expect(await fieldsOf(await post(business({ sourceOfFundsOtherDescription: long })))).toEqual([
        expect.objectContaining({
          field: "businessInfo.sourceOfFundsOtherDescription",
          constraint: expect.objectContaining({ maxLength: 500 })
        })
      ])
      expect(await fieldsOf(await post(individual({ purposeOfAccountOtherDescription: "" })))).toEqual([
        expect.objectContaining({
          field: "purposeOfAccountOtherDescription",
          constraint: expect.objectContaining({ minLength: 1 })
        })
      ])
      const created = await (await post(business())).json()
      const refused = await patch(created.id, {
        customerType: "BUSINESS",
        businessInfo: { purposeOfAccountOtherDescription: long }
      })
      expect(await fieldsOf(refused)).toEqual([
        expect.objectContaining({ field: "businessInfo.purposeOfAccountOtherDescription" })
      ])
      expect(await get(created.id)).toEqual(created)
    })

    it("refuses a too-long primary contact name and a malformed country in a list, naming each", async () => {
      const errors = await fieldsOf(
        await post(business({ primaryContactLastName: "x".repeat(251), expectedCounterpartyCountries: ["US", "XX"] }))
      )
      expect(errors.map(({ field }) => field).sort()).toEqual([
        "businessInfo.expectedCounterpartyCountries.1",
        "businessInfo.primaryContactLastName"
      ])
    })

    it("keeps refusing fields the reference does not have", async () => {
      const errors = await fieldsOf(await post(individual({ riskScore: 3 })))
      expect(errors).toEqual([expect.objectContaining({ field: "riskScore" })])
      const nested = await fieldsOf(await post(business({ naicsCodes: ["541511"] })))
      expect(nested).toEqual([expect.objectContaining({ field: "businessInfo.naicsCodes" })])
    })
  })
}
