import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

// Found by the fuzz: the router cuts a path at `;` (`/health;x` answered 200 as `/health`) and matches an empty
// segment as an empty parameter (`PATCH /customers/` reached `PATCH /customers/{customerId}`).
describe("a path the router would only match loosely is not found", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it.each([
    ["GET", "/health;x"],
    ["GET", "/ready;jsessionid=1"],
    ["GET", `${base}/customers;x`],
    ["GET", `${base}/customers/`],
    ["PATCH", `${base}/customers/`],
    ["DELETE", `${base}/platform/external-accounts/`],
    ["POST", `${base}/platform/external-accounts/ExternalAccount:${crypto.randomUUID()}/verify;x`],
    ["GET", `${base}/internal-accounts//`]
  ])("%s %s answers 404 NOT_FOUND", async (method, path) => {
    const response = await api.request(path, {
      method,
      ...(method === "POST" || method === "PATCH" ? { body: "{}" } : {})
    })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND", reason: "No route matches this path" })
  })

  it("still routes the exact paths", async () => {
    expect((await api.request("/health")).status).toBe(200)
    expect((await api.request(`${base}/customers`)).status).toBe(200)
  })
})
