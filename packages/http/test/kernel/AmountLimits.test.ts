import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

interface JsonSchema {
  readonly $ref?: string
  readonly maximum?: number
  readonly properties?: Record<string, JsonSchema>
}

describe("amount limits", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("states in the OpenAPI the sandbox funding maximum the server enforces, 10^11 minor units", async () => {
    const document = await (await api.request("/openapi.json")).json()
    const resolve = (schema: JsonSchema): JsonSchema =>
      schema.$ref === undefined
        ? schema
        : resolve(document.components.schemas[schema.$ref.slice("#/components/schemas/".length)])
    const body = resolve(
      document.paths[`${base}/sandbox/internal-accounts/{accountId}/fund`].post.requestBody.content["application/json"]
        .schema
    )
    const amount = body.properties?.["amount"]
    expect(amount).toBeDefined()
    // A tool reading only the referenced schema (siblings of `$ref` are ignored by OpenAPI 3.0 readers) sees this.
    expect(resolve(amount!).maximum).toBe(100_000_000_000)

    const customer = await (
      await api.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Kim Lee" })
      })
    ).json()
    const [account] = (await (await api.request(`${base}/internal-accounts?customerId=${customer.id}`)).json()).data
    const fund = (amount: number) =>
      api.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, {
        method: "POST",
        body: JSON.stringify({ amount })
      })
    expect((await fund(100_000_000_000)).status).toBe(200)
    expect((await fund(100_000_000_001)).status).toBe(400)
  })
})
