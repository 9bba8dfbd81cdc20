import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

const fieldsOf = async (response: Response) => {
  const body = await response.json()
  return {
    status: response.status,
    code: body.code,
    fields: (body.details?.errors ?? []).map((e: { field: string }) => e.field)
  }
}

describe("strict parsing", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("refuses unknown top-level body properties, naming each", async () => {
    const response = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Kim Lee", isAdmin: true })
    })
    expect(await fieldsOf(response)).toEqual({ status: 400, code: "INVALID_INPUT", fields: ["isAdmin"] })
  })

  it.each([
    ['{"customerType":{"toString":1},"fullName":"Kim Lee"}', "customerType"],
    ['{"customerType":{"valueOf":"x","toString":null},"fullName":"Kim Lee"}', "customerType"],
    ['{"customerType":{"\\u0074oString":1},"fullName":"Kim Lee"}', "customerType"],
    ['{"customerType":"INDIVIDUAL","fullName":"Kim Lee","__proto__":{"isAdmin":true}}', "__proto__"],
    ['{"customerType":"INDIVIDUAL","address":{"constructor":{"prototype":{}}}}', "address"]
  ])("refuses %s with a field error, never a 500", async (body, field) => {
    const response = await api.request(`${base}/customers`, { method: "POST", body })
    const { status, code, fields } = await fieldsOf(response)
    expect({ status, code }).toEqual({ status: 400, code: "INVALID_INPUT" })
    expect(fields.some((name: string) => name.startsWith(field))).toBe(true)
  })

  it("refuses an account type that shadows toString inside accountInfo, never a 500", async () => {
    const created = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Kim Lee" })
    })
    const customer = await created.json()
    const response = await api.request(`${base}/customers/external-accounts`, {
      method: "POST",
      body: `{"customerId":"${customer.id}","currency":"USD","accountInfo":{"accountType":{"toString":1}}}`
    })
    const { status, code, fields } = await fieldsOf(response)
    expect({ status, code }).toEqual({ status: 400, code: "INVALID_INPUT" })
    expect(fields).toEqual(["accountInfo.accountType.toString"])
  })

  it.each(["0x10", "1e2", " 5", "5 ", "+5", "05", "5.0", "0b11", "Infinity", ""])(
    "refuses limit=%j as anything but a plain decimal integer",
    async (limit) => {
      const response = await api.request(`${base}/customers?limit=${encodeURIComponent(limit)}`)
      expect(await fieldsOf(response)).toEqual({ status: 400, code: "INVALID_INPUT", fields: ["limit"] })
    }
  )

  it("accepts a plain decimal limit", async () => {
    expect((await api.request(`${base}/customers?limit=100`)).status).toBe(200)
  })

  it.each([`${base}/CUSTOMERS`, `${base}//customers`, `${base}/platform/internal-accounts/`, "/2025-10-13/Customers"])(
    "routes %s nowhere: paths are matched exactly",
    async (path) => {
      const response = await api.request(path)
      expect(response.status).toBe(404)
    }
  )

  it("publishes no internal `_tag` or Effect `Issue` schema in /openapi.json", async () => {
    const text = await (await api.request("/openapi.json")).text()
    expect(text).not.toContain("_tag")
    expect(JSON.parse(text).components.schemas).not.toHaveProperty("Issue")
  })
})
