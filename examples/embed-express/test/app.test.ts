import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import type { AddressInfo } from "node:net"
import type { Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Platforms } from "@payrail/core"
import { makeApp, payrailServices } from "../src/app.js"

let server: Server
let base: string
let auth: string
let dispose: () => Promise<void>

beforeAll(async () => {
  const runtime = ManagedRuntime.make(payrailServices)
  const context = await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof payrailServices>>())
  const issued = await runtime.runPromise(
    Effect.flatMap(Platforms.Platforms, (platforms) =>
      Effect.flatMap(platforms.create({ name: "Express test", environment: "SANDBOX" }), (platform) =>
        platforms.issueToken({ platformId: platform.id, name: "test", permissions: ["VIEW", "MANAGE"] })
      )
    )
  )
  auth = `Basic ${Buffer.from(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`).toString("base64")}`
  const built = makeApp(Layer.succeedContext(context))
  dispose = async () => {
    await built.dispose()
    await runtime.dispose()
  }
  server = built.app.listen(0)
  await new Promise((resolve) => server.once("listening", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await dispose()
})

describe("Payrail mounted in Express", () => {
  it("leaves the host's own routes to the host", async () => {
    const response = await fetch(`${base}/hello`)
    expect(await response.json()).toEqual({ message: "hello from the host app" })
  })

  it("serves the API under /payments: create, then read back a customer over a real socket", async () => {
    const created = await fetch(`${base}/payments/2025-10-13/customers`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Host User", email: "host@example.com" })
    })
    expect(created.status).toBe(201)
    const customer = await created.json()
    const read = await fetch(`${base}/payments/2025-10-13/customers/${customer.id}`, {
      headers: { authorization: auth }
    })
    expect(await read.json()).toEqual(customer)
  })

  it("answers API errors with the error body and leaves unknown host paths to Express", async () => {
    const unauthorized = await fetch(`${base}/payments/2025-10-13/customers`)
    expect(unauthorized.status).toBe(401)
    expect(await unauthorized.json()).toMatchObject({ code: "UNAUTHORIZED" })
    const invalid = await fetch(`${base}/payments/2025-10-13/customers`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: "{not json"
    })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ code: "INVALID_INPUT" })
    expect((await fetch(`${base}/payments/openapi.json`)).status).toBe(200)
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404)
  })
})
