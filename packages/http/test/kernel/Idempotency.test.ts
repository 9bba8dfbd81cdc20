import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Effect, Layer, Option, Ref } from "effect"
import { Errors, IdempotencyKeys, IdempotencyRecord, type Storage } from "@payrail/core"
import { makeHarness, type Harness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"

const fresh = () => globalThis.crypto.randomUUID()

/** The adapter's storage whose first `failures` responses stores fail, as a crash between effect and store would. */
const failingFirstStores = (storage: Layer.Layer<Storage.Services, unknown>, failures: number) =>
  Layer.effect(
    IdempotencyKeys.IdempotencyKeys,
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys.IdempotencyKeys
      const left = yield* Ref.make(failures)
      return {
        ...keys,
        complete: (scope: IdempotencyRecord.KeyScope, response: IdempotencyRecord.StoredResponse) =>
          Effect.flatMap(
            Ref.getAndUpdate(left, (n) => n - 1),
            (n) => (n > 0 ? Effect.fail(Errors.StoreFailure.of("injected failure")) : keys.complete(scope, response))
          )
      }
    })
  ).pipe(Layer.provideMerge(storage))

describeOverHttp("Idempotency-Key over HTTP", {}, (api, adapter) => {
  const post = (path: string, body: unknown, key?: string, auth?: string) =>
    api.request(`${base}${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } }),
      ...(auth === undefined ? {} : { auth })
    })

  const person = (email: string) => ({ customerType: "INDIVIDUAL", fullName: "Kim Lee", email })

  const customersWith = async (email: string, on: Harness = api, auth?: string) => {
    const response = await on.request(`${base}/customers?email=${encodeURIComponent(email)}`, {
      ...(auth === undefined ? {} : { auth })
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: Array<{ id: string }> }).data
  }

  const usdAccountOf = async (customerId: string) => {
    const listed = await api.request(`${base}/internal-accounts?customerId=${customerId}&currency=USD`)
    return ((await listed.json()) as { data: Array<{ id: string; balance: { amount: number } }> }).data[0]!
  }

  it("replays the first response unchanged, marked as a replay, and runs the request once", async () => {
    const email = `${fresh()}@example.com`
    const key = fresh()
    const first = await post("/customers", person(email), key)
    expect(first.status).toBe(201)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const firstBody = await first.text()
    const replay = await post("/customers", person(email), key)
    expect(replay.status).toBe(201)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.headers.get("content-type")).toBe(first.headers.get("content-type"))
    expect(await replay.text()).toBe(firstBody)
    expect(await customersWith(email)).toHaveLength(1)
  })

  it("refuses the key with another body or another path with 409 idempotency_key_reused, running nothing", async () => {
    const email = `${fresh()}@example.com`
    const key = fresh()
    const created = (await (await post("/customers", person(email), key)).json()) as { id: string }
    const otherEmail = `${fresh()}@example.com`
    for (const response of [
      await post("/customers", person(otherEmail), key),
      await api.request(`${base}/customers/${created.id}`, {
        method: "PATCH",
        body: JSON.stringify({ fullName: "Kim Park" }),
        headers: { "idempotency-key": key }
      })
    ]) {
      expect(response.status).toBe(409)
      expect(await response.json()).toMatchObject({ code: "CONFLICT", details: { rule: "idempotency_key_reused" } })
    }
    expect(await customersWith(otherEmail)).toHaveLength(0)
    const read = (await (await api.request(`${base}/customers/${created.id}`)).json()) as { fullName: string }
    expect(read.fullName).toBe("Kim Lee")
  })

  it("creates one customer for 64 concurrent requests with one key; the rest replay it or are told to retry", async () => {
    const email = `${fresh()}@example.com`
    const key = fresh()
    const responses = await Promise.all(Array.from({ length: 64 }, () => post("/customers", person(email), key)))
    const outcomes = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        replayed: response.headers.get("idempotent-replayed"),
        retryAfter: response.headers.get("retry-after"),
        body: await response.text()
      }))
    )
    const firsts = outcomes.filter((outcome) => outcome.status === 201 && outcome.replayed === null)
    expect(firsts).toHaveLength(1)
    for (const outcome of outcomes) {
      if (outcome.status === 201) expect(outcome.body).toBe(firsts[0]!.body)
      else {
        expect(outcome.status).toBe(409)
        expect(outcome.retryAfter).toBe("1")
        expect(JSON.parse(outcome.body)).toMatchObject({ details: { rule: "idempotency_key_in_progress" } })
      }
    }
    expect(await customersWith(email)).toHaveLength(1)
    const stored = await api.run(
      Effect.flatMap(IdempotencyKeys.IdempotencyKeys, (keys) =>
        keys.find({ platformId: api.platform.id, key: IdempotencyRecord.IdempotencyKey.make(key) })
      )
    )
    expect(Option.map(stored, (record) => record.response)).toEqual(
      Option.some({ status: 201, contentType: "application/json", body: firsts[0]!.body })
    )
  })

  it("funds an account once for 64 concurrent sandbox fundings with one key", async () => {
    const customer = (await (await post("/customers", person(`${fresh()}@example.com`))).json()) as { id: string }
    const account = await usdAccountOf(customer.id)
    const key = fresh()
    const responses = await Promise.all(
      Array.from({ length: 64 }, () => post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 700 }, key))
    )
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1)
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true)
    expect(
      responses.filter((response) => response.status === 200 && !response.headers.has("idempotent-replayed"))
    ).toHaveLength(1)
    expect((await usdAccountOf(customer.id)).balance.amount).toBe(700)
  })

  it("stores a refusal (4xx) and replays it, but not an invalid request (400), whose key stays free", async () => {
    const key = fresh()
    const missing = `InternalAccount:${fresh()}`
    const refused = await post(`/sandbox/internal-accounts/${missing}/fund`, { amount: 5 }, key)
    expect(refused.status).toBe(404)
    const replay = await post(`/sandbox/internal-accounts/${missing}/fund`, { amount: 5 }, key)
    expect(replay.status).toBe(404)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(await replay.text()).toBe(await refused.text())

    const email = `${fresh()}@example.com`
    const invalidKey = fresh()
    const invalid = await post("/customers", { ...person(email), email: "not an email" }, invalidKey)
    expect(invalid.status).toBe(400)
    const fixed = await post("/customers", person(email), invalidKey)
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get("idempotent-replayed")).toBeNull()
  })

  it("keeps keys per platform: another platform's request with the same key and body runs as its own", async () => {
    const email = `${fresh()}@example.com`
    const key = fresh()
    const mine = (await (await post("/customers", person(email), key)).json()) as { id: string }
    const theirs = await post("/customers", person(email), key, api.otherPlatformBasic)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(((await theirs.json()) as { id: string }).id).not.toBe(mine.id)
    expect(await customersWith(email, api, api.otherPlatformBasic)).toHaveLength(1)
  })

  it("checks credentials and permission before the key: refusals are neither stored nor replayed", async () => {
    const email = `${fresh()}@example.com`
    const key = fresh()
    expect((await post("/customers", person(email), key, "Basic d3Jvbmc6d3Jvbmc=")).status).toBe(401)
    const viewer = await api.tokenWith(["VIEW"])
    expect((await post("/customers", person(email), key, viewer)).status).toBe(403)
    const created = await post("/customers", person(email), key)
    expect(created.status).toBe(201)
    expect(created.headers.get("idempotent-replayed")).toBeNull()
    // A token without the permission gets 403, not the stored response.
    expect((await post("/customers", person(email), key, viewer)).status).toBe(403)
  })

  it("answers a malformed key with 400 naming the header", async () => {
    for (const key of ["", "x".repeat(256), "tab\there", "caf\u00e9"]) {
      const response = await post("/customers", person(`${fresh()}@example.com`), key)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [expect.objectContaining({ field: "idempotency-key" })] }
      })
    }
    expect((await post("/customers", person(`${fresh()}@example.com`), "x".repeat(255))).status).toBe(201)
  })

  it("applies nothing when storing the response fails after the effect; the key stays free for the retry", async () => {
    const failing = await makeHarness({ storage: failingFirstStores(adapter.storage(), 2) })
    try {
      const email = `${fresh()}@example.com`
      const key = fresh()
      const failed = await failing.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify(person(email)),
        headers: { "idempotency-key": key }
      })
      expect(failed.status).toBe(500)
      expect(await customersWith(email, failing)).toHaveLength(0)

      const created = (await (
        await failing.request(`${base}/customers`, { method: "POST", body: JSON.stringify(person(email)) })
      ).json()) as { id: string }
      const listed = await failing.request(`${base}/internal-accounts?customerId=${created.id}&currency=USD`)
      const account = ((await listed.json()) as { data: Array<{ id: string }> }).data[0]!
      const fundKey = fresh()
      const fund = () =>
        failing.request(`${base}/sandbox/internal-accounts/${account.id}/fund`, {
          method: "POST",
          body: JSON.stringify({ amount: 900 }),
          headers: { "idempotency-key": fundKey }
        })
      expect((await fund()).status).toBe(500)
      const balance = async () =>
        (
          (await (await failing.request(`${base}/internal-accounts/${account.id}`)).json()) as {
            balance: { amount: number }
          }
        ).balance.amount
      expect(await balance()).toBe(0)
      const retried = await fund()
      expect(retried.status).toBe(200)
      expect(retried.headers.get("idempotent-replayed")).toBeNull()
      expect(await balance()).toBe(900)
    } finally {
      await failing.dispose()
    }
  })
})

describe("Idempotency-Key in the OpenAPI document", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  type Operation = {
    readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
    readonly responses: Record<string, { readonly content?: unknown; readonly headers?: Record<string, unknown> }>
  }

  it("declares the header, both 409 bodies and Retry-After on every mutating operation, none on the others", async () => {
    const spec = (await (await api.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, Operation>>
    }
    const mutating = new Set(["post", "put", "patch", "delete"])
    let checked = 0
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const header = (operation.parameters ?? []).some(
          (parameter) => parameter.in === "header" && parameter.name.toLowerCase() === "idempotency-key"
        )
        const conflict = JSON.stringify(operation.responses["409"] ?? {})
        const bodies = ["IdempotencyKeyReused", "IdempotencyKeyInProgress"].map((name) => conflict.includes(name))
        const expected = mutating.has(method) && path.startsWith(`${base}/`)
        const retryAfter = operation.responses["409"]?.headers?.["Retry-After"] !== undefined
        expect({ path, method, header, bodies, retryAfter }).toEqual({
          path,
          method,
          header: expected,
          bodies: [expected, expected],
          retryAfter: expected
        })
        checked++
      }
    }
    expect(checked).toBeGreaterThan(10)
  })
})

describe("Idempotency-Key replays and the error mapping", () => {
  let api: Harness

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("answers a replay without logging a failure: it never reaches the error mapping as one", async () => {
    const logged: Array<unknown> = []
    const log = vi.spyOn(console, "log").mockImplementation((...args) => void logged.push(...args))
    const error = vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(...args))
    try {
      const key = fresh()
      const request = () =>
        api.request(`${base}/customers`, {
          method: "POST",
          body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Kim Lee" }),
          headers: { "idempotency-key": key }
        })
      expect((await request()).status).toBe(201)
      const replay = await request()
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
    expect(logged.map(String).join("\n")).not.toMatch(/level=(ERROR|WARN)|unhandled failure/)
  })
})
