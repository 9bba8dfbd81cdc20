import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

describe("errors never echo input", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("names no path in a 404 however long the path is", async () => {
    const long = `${base}/${"x".repeat(8000)}`
    const response = await api.request(long)
    expect(response.status).toBe(404)
    const text = await response.text()
    expect(text).not.toContain("xxxxxxxx")
    expect(text.length).toBeLessThan(300)
  })

  it("does not repeat a reused Idempotency-Key or its internal prefix in the 409", async () => {
    const customer = (await (
      await api.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Kim Lee" })
      })
    ).json()) as { id: string }
    const listed = await (await api.request(`${base}/internal-accounts?customerId=${customer.id}&currency=USD`)).json()
    const key = "my-very-own-key-7f3a"
    const fund = (amount: number) =>
      api.request(`${base}/sandbox/internal-accounts/${listed.data[0].id}/fund`, {
        method: "POST",
        body: JSON.stringify({ amount }),
        headers: { "idempotency-key": key }
      })
    expect((await fund(100)).status).toBe(200)
    const reused = await fund(200)
    expect(reused.status).toBe(409)
    const text = await reused.text()
    expect(text).not.toContain(key)
    expect(text).not.toContain("sandbox-fund")
  })
})
