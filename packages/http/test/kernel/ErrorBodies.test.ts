import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CustomerRepo, Errors } from "@payrail/core"
import { StorageMemory } from "@payrail/storage-memory"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

// Customer reads fail in two ways: listing with a store failure, reading one with a defect (an unexpected bug).
const brokenCustomers = Layer.effect(
  CustomerRepo.CustomerRepo,
  Effect.map(CustomerRepo.CustomerRepo, (repo) => ({
    ...repo,
    list: () => Effect.fail(Errors.StoreFailure.of("list customers", new Error("connection reset"))),
    findById: () => Effect.die(new Error("a bug with a secret inside"))
  }))
).pipe(Layer.provideMerge(StorageMemory.layer))

let api: Harness
let broken: Harness

beforeAll(async () => {
  api = await makeHarness()
  broken = await makeHarness({ storage: brokenCustomers })
})
afterAll(async () => {
  await api.dispose()
  await broken.dispose()
})

const errorOf = async (response: Promise<Response>) => {
  const answered = await response
  return { httpStatus: answered.status, body: await answered.json() }
}

describe("error bodies", () => {
  it("carry the HTTP status and the reason as `message` beside code, reason and details, for every kind of failure", async () => {
    const customer = `Customer:${crypto.randomUUID()}`
    const cases = await Promise.all([
      errorOf(api.request(`${base}/customers`, { method: "POST", body: JSON.stringify({ customerType: "ROBOT" }) })),
      errorOf(api.request(`${base}/customers`, { method: "POST", body: "{" })),
      errorOf(api.request(`${base}/customers`, { auth: null })),
      errorOf(api.request(`${base}/customers`, { method: "POST", body: "{}", auth: "Basic " + btoa("pk_x:sk_x") })),
      errorOf(
        api.tokenWith(["VIEW"]).then((auth) =>
          api.request(`${base}/customers`, {
            method: "POST",
            body: JSON.stringify({ customerType: "INDIVIDUAL" }),
            auth
          })
        )
      ),
      errorOf(api.request(`${base}/customers/${customer}`)),
      errorOf(api.request(`${base}/internal-accounts/InternalAccount:${crypto.randomUUID()}`)),
      errorOf(api.request(`${base}/no-such-route`)),
      errorOf(api.request(`${base}/customers/${customer}`, { method: "PUT" })),
      errorOf(
        api.request(`${base}/customers`, { method: "POST", body: "a=b", headers: { "content-type": "text/plain" } })
      ),
      errorOf(broken.request(`${base}/customers`)),
      errorOf(broken.request(`${base}/customers/${customer}`))
    ])
    expect(cases.map(({ body, httpStatus }) => [httpStatus, body.code])).toEqual([
      [400, "INVALID_INPUT"],
      [400, "INVALID_INPUT"],
      [401, "UNAUTHORIZED"],
      [401, "UNAUTHORIZED"],
      [403, "FORBIDDEN"],
      [404, "USER_NOT_FOUND"],
      [404, "NOT_FOUND"],
      [404, "NOT_FOUND"],
      [405, "METHOD_NOT_ALLOWED"],
      [415, "UNSUPPORTED_MEDIA_TYPE"],
      [500, "INTERNAL_ERROR"],
      [500, "INTERNAL_ERROR"]
    ])
    for (const { body, httpStatus } of cases) {
      expect(body.status).toBe(httpStatus)
      expect(typeof body.reason).toBe("string")
      expect(body.message).toBe(body.reason)
      expect(Object.keys(body).every((key) => ["status", "code", "message", "reason", "details"].includes(key))).toBe(
        true
      )
    }
    expect(cases[0]?.body.details.errors).toEqual([expect.objectContaining({ field: "customerType" })])
    expect(cases[8]?.body.details).toEqual({ allowedMethods: ["GET", "PATCH", "DELETE"] })
  })

  it("never put internals of a 500 in the body", async () => {
    const { body } = await errorOf(broken.request(`${base}/customers/Customer:${crypto.randomUUID()}`))
    expect(JSON.stringify(body)).not.toMatch(/secret|bug|connection reset|stack/i)
  })

  it("answers a request outside the mount prefix with the route-not-found body", async () => {
    const mounted = await makeHarness({ prefix: "/payments" })
    try {
      const { body, httpStatus } = await errorOf(mounted.request(`${base}/customers`))
      expect(httpStatus).toBe(404)
      expect(body).toMatchObject({ status: 404, code: "NOT_FOUND" })
      expect(body.message).toBe(body.reason)
    } finally {
      await mounted.dispose()
    }
  })
})
