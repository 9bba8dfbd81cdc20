import { HttpApi } from "@effect/platform"
import { Authentication, PayrailApi } from "@payrail/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EndpointPermissions } from "../../src/platforms/index.js"
import { type Harness, makeHarness } from "../support/Harness.js"

const base = "/2025-10-13"
const customerId = `Customer:${crypto.randomUUID()}`
const accountId = `InternalAccount:${crypto.randomUUID()}`
const externalId = `ExternalAccount:${crypto.randomUUID()}`

describe("permissions are checked before the request is decoded", () => {
  let api: Harness
  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("names a permission for every endpoint under Basic authentication and none for the others", () => {
    const named: Array<string> = []
    HttpApi.reflect(PayrailApi.PayrailApi, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint, middleware }) => {
        const permission = EndpointPermissions.required(endpoint.method, endpoint.path)
        // Agent endpoints (bearer `AgentAuth`) answer to the agent's policy, not to an API token's permissions.
        const basic = [...middleware].some((tag) => tag.key === Authentication.Authentication.key)
        expect(permission === undefined, `${endpoint.method} ${endpoint.path}`).toBe(!basic)
        named.push(endpoint.name)
      }
    })
    expect(named.length).toBeGreaterThan(20)
  })

  it("answers 403, not 400, to a token lacking the permission, whatever its path and body hold", async () => {
    const viewOnly = await api.tokenWith(["VIEW"])
    const refused: Array<readonly [string, string]> = [
      ["POST", `${base}/customers`],
      ["PATCH", `${base}/customers/not-an-id`],
      ["PATCH", `${base}/customers/${customerId}`],
      ["POST", `${base}/sandbox/internal-accounts/nope/fund`],
      ["POST", `${base}/sandbox/internal-accounts/${accountId}/fund`],
      ["POST", `${base}/customers/external-accounts`],
      ["POST", `${base}/platform/external-accounts/${externalId}/verify`],
      ["DELETE", `${base}/customers/external-accounts/bad`]
    ]
    for (const [method, path] of refused) {
      const response = await api.request(path, {
        method,
        auth: viewOnly,
        headers: { "content-type": "application/json" },
        ...(method === "DELETE" ? {} : { body: JSON.stringify({ customerType: 42, amount: "x" }) })
      })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(await response.json()).toMatchObject({ code: "FORBIDDEN" })
    }
  })

  it("still answers 400 for bad input to a token holding the permission", async () => {
    const response = await api.request(`${base}/customers/not-an-id`, {
      method: "PATCH",
      body: JSON.stringify({ customerType: "INDIVIDUAL" })
    })
    expect(response.status).toBe(400)
  })
})
