import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "./Harness.js"
import { checkedFetch, ContractViolation, fromDocument, type OpenApiContract } from "./OpenApiContract.js"

const base = "/2025-10-13"

let api: Harness
let contract: OpenApiContract
let customer: Record<string, unknown>

beforeAll(async () => {
  api = await makeHarness()
  contract = fromDocument(await (await api.request("/openapi.json", { auth: null })).json())
  const created = await api.request(`${base}/customers`, {
    method: "POST",
    body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace" })
  })
  customer = await created.json()
})
afterAll(() => api.dispose())

const json = (method: string, path: string, status: number, body: unknown) => ({
  method,
  path,
  status,
  contentType: "application/json",
  body: JSON.stringify(body)
})

const violation = (run: () => void): string => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ContractViolation)
    return (error as ContractViolation).message
  }
  throw new Error("expected a ContractViolation")
}

describe("the OpenAPI contract check", () => {
  it("accepts what the document describes", () => {
    contract.verify(json("POST", `${base}/customers`, 201, customer))
    contract.verify(json("GET", `${base}/customers/${customer["id"]}`, 200, customer))
    // A literal path segment wins over a parameter: this is the internal-account list, not a customer read.
    contract.verify(
      json("GET", `${base}/customers/internal-accounts`, 200, { data: [], hasMore: false, totalCount: 0 })
    )
  })

  it("fails on a status the operation does not document, naming the operation", () => {
    const message = violation(() => contract.verify(json("POST", `${base}/customers`, 200, customer)))
    expect(message).toContain("operation: POST /2025-10-13/customers (customers.create)")
    expect(message).toContain("status 200 is not documented (documented: 201,")
  })

  it("fails on a body of the wrong shape, with the JSON pointer and the schema rule broken", () => {
    const { id: _id, ...withoutId } = customer
    const message = violation(() =>
      contract.verify(json("GET", `${base}/customers/${customer["id"]}`, 200, { ...withoutId, kycStatus: "MAYBE" }))
    )
    expect(message).toContain("operation: GET /2025-10-13/customers/{customerId} (customers.get)")
    expect(message).toMatch(/at \/: must have required property 'id'/)
    expect(message).toMatch(/at \/kycStatus: must be equal to one of the allowed values .*\/enum\); actual "MAYBE"/)
  })

  it("fails on a body where none is documented, and on a missing or non-JSON body where one is", () => {
    const path = `${base}/customers/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000`
    expect(violation(() => contract.verify(json("DELETE", path, 204, { ok: true })))).toContain(
      "documented without a body"
    )
    expect(violation(() => contract.verify({ ...json("GET", `${base}/customers`, 200, {}), body: "" }))).toContain(
      "documented with a JSON body"
    )
    expect(
      violation(() => contract.verify({ ...json("GET", `${base}/customers`, 200, {}), contentType: "text/html" }))
    ).toContain("not JSON")
  })

  it("holds requests no operation answers to the 404 and 405 every candidate documents", () => {
    const missing = {
      status: 404,
      code: "NOT_FOUND",
      message: "No route for GET /nope",
      reason: "No route for GET /nope"
    }
    expect(violation(() => contract.verify(json("GET", "/nope", 200, { status: "ok" })))).toContain(
      "no path template matches"
    )
    expect(violation(() => contract.verify(json("GET", "/nope", 418, missing)))).toContain(
      "status 418 is not documented"
    )
    expect(
      violation(() => contract.verify(json("GET", "/nope", 404, { ...missing, code: "USER_NOT_FOUND" })))
    ).toContain('at /code: must be equal to one of the allowed values {"allowedValues":["NOT_FOUND"]}')
    contract.verify(json("GET", "/nope", 404, missing))
    const path = `${base}/customers/${customer["id"]}`
    const wrongMethod = violation(() => contract.verify(json("PUT", path, 200, customer)))
    expect(wrongMethod).toContain("none for PUT; the path is /2025-10-13/customers/{customerId} (GET, DELETE, PATCH)")
    expect(wrongMethod).toContain("status 200 is not an error, but no operation answers this request")
    contract.verify(
      json("PUT", path, 405, {
        status: 405,
        code: "METHOD_NOT_ALLOWED",
        message: "PUT is not allowed here",
        reason: "PUT is not allowed here",
        details: { allowedMethods: ["DELETE", "GET", "PATCH"] }
      })
    )
  })

  it("makes a checked fetch reject a response that breaks the contract", async () => {
    const served = await (await api.request("/openapi.json", { auth: null })).text()
    const fake = async (input: string | URL | Request) =>
      new URL(input instanceof Request ? input.url : input).pathname === "/openapi.json"
        ? new Response(served, { headers: { "content-type": "application/json" } })
        : new Response(JSON.stringify(customer), { status: 200, headers: { "content-type": "application/json" } })
    const fetch = checkedFetch(fake, "http://payrail.test")
    await expect(fetch(`http://payrail.test${base}/customers`, { method: "POST", body: "{}" })).rejects.toThrow(
      ContractViolation
    )
    const read = await fetch(`http://payrail.test${base}/customers/${customer["id"]}`)
    expect(await read.json()).toEqual(customer)
  })
})
