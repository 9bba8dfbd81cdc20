import { describe, expect, it } from "vitest"
import { base, describeOverHttp } from "../support/OverHttp.js"

// JSON.stringify writes a lone surrogate as the escape `\ud800`, as an attacker's client would send it.
const loneSurrogate = "a\ud800b"
const nul = "a\u0000b"

const cursorOf = (createdAt: string, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString("base64url")

const fieldsOf = async (response: Response) => {
  const body = await response.json()
  return {
    status: response.status,
    code: body.code,
    fields: (body.details?.errors ?? []).map((e: { field: string }) => e.field)
  }
}

describeOverHttp("input bounds over HTTP", {}, (api) => {
  const send = (method: string, path: string, body: unknown) =>
    api.request(`${base}${path}`, { method, body: JSON.stringify(body) })

  const newCustomer = async () => {
    const response = await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Kim Lee" })
    expect(response.status).toBe(201)
    return (await response.json()) as { id: string }
  }

  const usdAccount = (beneficiary: Record<string, unknown>) => ({
    accountType: "USD_ACCOUNT",
    accountNumber: "123456789",
    routingNumber: "021000021",
    beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Kim Lee", ...beneficiary }
  })

  describe("free text refuses lone surrogates and NUL with a field error", () => {
    it.each([
      ["a lone surrogate", loneSurrogate],
      ["a NUL character", nul]
    ])("on customer create and update (%s)", async (_, bad) => {
      const individual = await send("POST", "/customers", {
        customerType: "INDIVIDUAL",
        fullName: bad,
        platformCustomerId: bad,
        email: `${bad}@example.com`,
        address: { line1: bad, postalCode: "10001", country: "US" }
      })
      expect(await fieldsOf(individual)).toEqual({
        status: 400,
        code: "INVALID_INPUT",
        fields: ["platformCustomerId", "email", "fullName", "address.line1"]
      })
      const business = await send("POST", "/customers", {
        customerType: "BUSINESS",
        businessInfo: { legalName: bad, entityType: bad }
      })
      expect(await fieldsOf(business)).toEqual({
        status: 400,
        code: "INVALID_INPUT",
        fields: ["businessInfo.legalName", "businessInfo.entityType"]
      })
      const customer = await newCustomer()
      const update = await send("PATCH", `/customers/${customer.id}`, { customerType: "INDIVIDUAL", fullName: bad })
      expect(await fieldsOf(update)).toEqual({ status: 400, code: "INVALID_INPUT", fields: ["fullName"] })
      // A query string carries UTF-8, in which a lone surrogate cannot be written; NUL can.
      if (bad === nul) {
        const listed = await api.request(`${base}/customers?platformCustomerId=${encodeURIComponent(bad)}`)
        expect(await fieldsOf(listed)).toEqual({ status: 400, code: "INVALID_INPUT", fields: ["platformCustomerId"] })
      }
    })

    it.each([
      ["a lone surrogate", loneSurrogate],
      ["a NUL character", nul]
    ])("on external accounts (%s)", async (_, bad) => {
      const customer = await newCustomer()
      const response = await send("POST", "/customers/external-accounts", {
        customerId: customer.id,
        currency: "USD",
        platformAccountId: bad,
        accountInfo: usdAccount({ fullName: bad, address: { line1: bad, postalCode: "1", country: "US" } })
      })
      expect(await fieldsOf(response)).toEqual({
        status: 400,
        code: "INVALID_INPUT",
        fields: ["platformAccountId", "accountInfo.beneficiary.fullName", "accountInfo.beneficiary.address.line1"]
      })
      const platform = await send("POST", "/platform/external-accounts", {
        currency: "USD",
        accountInfo: usdAccount({ fullName: bad })
      })
      expect(await fieldsOf(platform)).toEqual({
        status: 400,
        code: "INVALID_INPUT",
        fields: ["accountInfo.beneficiary.fullName"]
      })
    })

    it("keeps well-formed text outside the Basic Multilingual Plane and right-to-left marks", async () => {
      const response = await send("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "\u200fAda 😀" })
      expect(response.status).toBe(201)
      expect((await response.json()).fullName).toBe("\u200fAda 😀")
    })
  })

  describe("dates stay within what PostgreSQL stores", () => {
    const unstorable = ["0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "+012345-01-01T00:00:00Z", "12345"]

    it.each(unstorable)("refuses %s in the customer date filters with 400", async (date) => {
      for (const filter of ["createdAfter", "createdBefore", "updatedAfter", "updatedBefore"]) {
        const response = await api.request(`${base}/customers?${filter}=${encodeURIComponent(date)}`)
        expect(await fieldsOf(response)).toEqual({ status: 400, code: "INVALID_INPUT", fields: [filter] })
      }
    })

    const lists = [
      "/customers",
      "/internal-accounts",
      "/customers/internal-accounts",
      "/customers/external-accounts",
      "/platform/external-accounts"
    ]
    const forged = [
      cursorOf("0000-01-01T00:00:00.000Z", "Customer:x"),
      cursorOf("-000001-01-01T00:00:00.000Z", "Customer:x"),
      cursorOf("+012345-01-01T00:00:00.000Z", "Customer:x"),
      cursorOf("2024-01-01T00:00:00.000Z", nul),
      cursorOf("2024-01-01T00:00:00.000Z", loneSurrogate)
    ]

    it.each(lists)("refuses forged cursors on %s with 400 on the cursor field", async (list) => {
      for (const cursor of forged) {
        const response = await api.request(`${base}${list}?cursor=${cursor}`)
        expect(await fieldsOf(response)).toEqual({ status: 400, code: "INVALID_INPUT", fields: ["cursor"] })
      }
    })

    it("still pages with the cursors it hands out", async () => {
      await Promise.all([newCustomer(), newCustomer()])
      const first = await (await api.request(`${base}/customers?limit=1`)).json()
      expect(first.hasMore).toBe(true)
      expect((await api.request(`${base}/customers?limit=1&cursor=${first.nextCursor}`)).status).toBe(200)
    })
  })

  it("answers a NUL or a lone surrogate in the Basic client id with 401, before any lookup", async () => {
    for (const clientId of [nul, "pk_\u0000", "\ud800"]) {
      const response = await api.request(`${base}/customers`, {
        auth: `Basic ${Buffer.from(`${clientId}:sk_secret`).toString("base64")}`
      })
      expect(response.status).toBe(401)
    }
  })
})
