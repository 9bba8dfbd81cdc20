import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"
import { type Refusal, requestsOf } from "../support/Requests.js"

const success = "$success.usd@sandbox.uma.money"

/*
 * Incoming payments over HTTP: every refusal of `POST /sandbox/uma/receive` with its status and body, receipt
 * confirmation without a body, and the `Deprecation` header on the transfers' error answers, on every storage
 * adapter; the harness checks every answer against the OpenAPI document.
 */
describeOverHttp("incoming payments over HTTP", {}, (api) => {
  const requests = requestsOf(api)
  const { send } = requests
  const newCustomer = () => requests.newCustomer({ fullName: "Noor Haddad" })
  const receive = (body: Record<string, unknown>, auth?: string) => send("POST", "/sandbox/uma/receive", body, auth)
  const refusal = (body: Record<string, unknown>, auth?: string) =>
    requests.refusal("POST", "/sandbox/uma/receive", body, auth)
  const fieldsOf = (details: Refusal["details"]) => requests.fieldsOf(details).sort()

  it("refuses malformed sender and receiver addresses with INVALID_UMA_ADDRESS naming the field", async () => {
    const customer = await newCustomer()
    const valid = { receivingCurrencyCode: "USD", receivingCurrencyAmount: 100 }
    // A missing `$` is accepted (`$` is added), as the receiver lookups take addresses.
    for (const sender of ["$@sandbox.uma.money", "$a b@x.io", "$alice@localhost", "alice"]) {
      expect(await refusal({ ...valid, senderUmaAddress: sender, customerId: customer.id })).toEqual({
        status: 400,
        code: "INVALID_UMA_ADDRESS",
        details: { field: "senderUmaAddress" }
      })
    }
    expect(await refusal({ ...valid, senderUmaAddress: success, receiverUmaAddress: "nobody" })).toEqual({
      status: 400,
      code: "INVALID_UMA_ADDRESS",
      details: { field: "receiverUmaAddress" }
    })
  })

  it("names every invalid field with INVALID_INPUT, and asks for exactly one receiver", async () => {
    const customer = await newCustomer()
    const invalid = await refusal({
      senderUmaAddress: "",
      customerId: "Quote:nope",
      receivingCurrencyCode: "XXX",
      receivingCurrencyAmount: 0,
      tip: 1
    })
    expect(invalid.status).toBe(400)
    expect(invalid.code).toBe("INVALID_INPUT")
    expect(fieldsOf(invalid.details)).toEqual([
      "customerId",
      "receivingCurrencyAmount",
      "receivingCurrencyCode",
      "senderUmaAddress",
      "tip"
    ])
    for (const amount of [-5, 10.5, 9_007_199_254_740_992]) {
      const refused = await refusal({
        senderUmaAddress: success,
        customerId: customer.id,
        receivingCurrencyCode: "USD",
        receivingCurrencyAmount: amount
      })
      expect([refused.status, refused.code, fieldsOf(refused.details)]).toEqual([
        400,
        "INVALID_INPUT",
        ["receivingCurrencyAmount"]
      ])
    }
    const valid = { senderUmaAddress: success, receivingCurrencyCode: "USD", receivingCurrencyAmount: 100 }
    const neither = await refusal(valid)
    expect([neither.status, neither.code, fieldsOf(neither.details)]).toEqual([
      400,
      "INVALID_INPUT",
      ["receiverUmaAddress"]
    ])
    const both = await refusal({ ...valid, customerId: customer.id, receiverUmaAddress: customer.umaAddress })
    expect([both.status, both.code, fieldsOf(both.details)]).toEqual([400, "INVALID_INPUT", ["customerId"]])
  })

  it("answers an unknown receiver, or another platform's, with the customer 404", async () => {
    const valid = { senderUmaAddress: success, receivingCurrencyCode: "USD", receivingCurrencyAmount: 100 }
    const unknownId = "Customer:00000000-0000-4000-8000-000000000000"
    expect(await refusal({ ...valid, customerId: unknownId })).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })
    expect(await refusal({ ...valid, receiverUmaAddress: "$nobody@uma.example" })).toMatchObject({
      status: 404,
      code: "USER_NOT_FOUND"
    })
    const theirs = await send(
      "POST",
      "/customers",
      { customerType: "INDIVIDUAL", fullName: "Other Platform" },
      api.otherPlatformBasic
    )
    expect(theirs.status).toBe(201)
    expect(await refusal({ ...valid, customerId: theirs.body.id })).toMatchObject({ status: 404 })
    expect(await refusal({ ...valid, receiverUmaAddress: theirs.body.umaAddress })).toMatchObject({ status: 404 })
  })

  it("refuses a currency the receiver holds no account in with INVALID_CURRENCY", async () => {
    const customer = await newCustomer()
    expect(
      await refusal({
        senderUmaAddress: success,
        customerId: customer.id,
        receivingCurrencyCode: "GBP",
        receivingCurrencyAmount: 100
      })
    ).toEqual({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "receiver_has_no_account_in_currency", currency: "GBP" }
    })
  })

  it("refuses a payment that would pass the largest balance with 409, crediting nothing", async () => {
    const customer = await newCustomer()
    const body = {
      senderUmaAddress: success,
      receiverUmaAddress: customer.umaAddress,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: Number.MAX_SAFE_INTEGER
    }
    const first = await receive(body)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ status: "COMPLETED", type: "INCOMING", customerId: customer.id })
    expect(await refusal(body)).toMatchObject({ status: 409, code: "CONFLICT" })
    const listed = await send("GET", `/transactions?customerId=${customer.id}`)
    expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([first.body.id])
  })

  it("needs TRANSACT", async () => {
    const customer = await newCustomer()
    const viewer = await api.tokenWith(["VIEW"])
    expect(
      await refusal(
        {
          senderUmaAddress: success,
          customerId: customer.id,
          receivingCurrencyCode: "USD",
          receivingCurrencyAmount: 1
        },
        viewer
      )
    ).toMatchObject({ status: 403, code: "FORBIDDEN" })
  })

  it("confirms a receipt with no body, with or without a Content-Type, as with {}", async () => {
    const customer = await newCustomer()
    const received = await receive({
      senderUmaAddress: success,
      customerId: customer.id,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: 25
    })
    const path = `/transactions/${received.body.id}/confirm`
    const bare = await api.request(`${base}${path}`, { method: "POST" })
    expect(bare.status).toBe(200)
    const first = (await bare.json()).receiptDeliveryConfirmedAt
    expect(first).toEqual(expect.any(String))
    const typed = await api.request(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" }
    })
    expect(typed.status).toBe(200)
    const empty = await send("POST", path, {})
    expect(empty.status).toBe(200)
    expect(empty.body).toMatchObject({ id: received.body.id, status: "COMPLETED" })
    const at = "2026-01-02T03:04:05.000Z"
    expect((await send("POST", path, { receiptDeliveryConfirmedAt: at })).body.receiptDeliveryConfirmedAt).toBe(at)
    // Another body that is not JSON is still refused.
    const broken = await api.request(`${base}${path}`, { method: "POST", body: "{" })
    expect(broken.status).toBe(400)
  })

  it("marks the transfers' error answers Deprecation: true, as their successes", async () => {
    for (const path of ["/transfer-in", "/transfer-out"]) {
      const invalid = await send("POST", path, { amount: 0 })
      expect(invalid.status).toBe(400)
      expect(invalid.headers.get("deprecation")).toBe("true")
      const missing = await send("POST", path, {
        source: { accountId: "InternalAccount:00000000-0000-4000-8000-000000000000" },
        destination: { accountId: "InternalAccount:00000000-0000-4000-8000-000000000001" },
        amount: 100
      })
      expect(missing.status).toBeGreaterThanOrEqual(400)
      expect(missing.headers.get("deprecation")).toBe("true")
      const denied = await send("POST", path, { amount: 1 }, await api.tokenWith(["VIEW"]))
      expect(denied.status).toBe(403)
      expect(denied.headers.get("deprecation")).toBe("true")
    }
    expect((await send("POST", "/quotes", { amount: 0 })).headers.get("deprecation")).toBeNull()
  })
})

describe("incoming payments on a production platform", () => {
  let api: Harness
  beforeAll(async () => {
    api = await makeHarness({ environment: "PRODUCTION" })
  })
  afterAll(() => api.dispose())

  it("refuses UMA receive with the sandbox-only 403", async () => {
    const response = await api.request(`${base}/sandbox/uma/receive`, {
      method: "POST",
      body: JSON.stringify({
        senderUmaAddress: success,
        receiverUmaAddress: "$someone@uma.example",
        receivingCurrencyCode: "USD",
        receivingCurrencyAmount: 100
      })
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN", details: { rule: "sandbox_platforms_only" } })
  })
})
