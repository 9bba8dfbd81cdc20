import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DateTime, Effect } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"
import {
  DomainEvent,
  Outbox,
  Platform,
  Platforms,
  WebhookDeliveries,
  WebhookDispatch,
  WebhookSecrets
} from "@payrail/core"
import { StorageMemory } from "@payrail/storage-memory"
import { makePaymentApp, type PaymentApp } from "../payments/PaymentApp.js"

/** What the receiver got: each request with the outcome of verifying it with the standardwebhooks library. */
interface Received {
  readonly path: string
  readonly verified: boolean
  readonly payload: Record<string, unknown> | undefined
}

// A real receiver on loopback. It verifies every request with `standardwebhooks` against the secrets it was told
// (any one verifying is enough, as during a rotation) and answers per path: `/hooks` 200, `/flaky` 500 then 200,
// `/duplicate` 409.
const received: Array<Received> = []
const secrets: Array<string> = []
let flakyCalls = 0
let receiver: Server
let receiverUrl = ""

const receive = (request: IncomingMessage, response: ServerResponse) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(",") : (value ?? "")
      ])
    )
    let payload: Record<string, unknown> | undefined
    for (const secret of secrets) {
      try {
        payload = new Webhook(secret).verify(body, headers) as Record<string, unknown>
        break
      } catch {
        // try the next secret
      }
    }
    const path = request.url ?? ""
    received.push({ path, verified: payload !== undefined, payload })
    const status =
      payload === undefined ? 401 : path === "/duplicate" ? 409 : path === "/flaky" && flakyCalls++ === 0 ? 500 : 200
    response.writeHead(status, { "content-type": "text/plain" })
    response.end(status === 200 ? "thanks" : `status ${status}`)
  })
}

let app: PaymentApp
const run: PaymentApp["run"] = (effect) => app.run(effect)

/** A platform whose endpoint is `path` on the receiver, with a token holding every permission. */
const platformAt = async (path: string | undefined, environment: Platform.Environment = "SANDBOX") => {
  const { platform, call } = await app.newPlatform({
    environment,
    config: new Platform.PlatformConfig({
      ...Platforms.defaultConfig,
      ...(path === undefined ? {} : { webhookEndpoint: `${receiverUrl}${path}` })
    })
  })
  const request = (route: string, body?: unknown) => call("POST", route, body ?? {})
  // The secret is shown only when issued: rotating is how a platform gets one.
  const rotated = (await request("/webhooks/secret/rotate")).body
  secrets.push(rotated.webhookSecret)
  return { platform, request, secret: rotated.webhookSecret }
}

const eventsOf = (platformId: Platform.PlatformId) =>
  run(
    Effect.map(
      Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(1000)),
      (events) => events.filter((event) => event.platformId === platformId)
    )
  )

const appendEvent = (platformId: Platform.PlatformId) =>
  run(
    Effect.gen(function* () {
      const event = yield* DomainEvent.make(platformId, "INTERNAL_ACCOUNT.BALANCE_UPDATED", { id: "InternalAccount:1" })
      yield* (yield* Outbox.Outbox).append(event)
      return event
    })
  )

const attempt = (event: DomainEvent.DomainEvent) =>
  run(Effect.flatMap(WebhookDispatch.WebhookDispatch, (dispatch) => dispatch.attempt(event.id)))

beforeAll(async () => {
  receiver = createServer(receive)
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  // No worker: each test attempts its deliveries itself.
  app = await makePaymentApp({ layer: StorageMemory.layer, dispose: async () => {} }, { webhooks: true })
})

afterAll(async () => {
  await app.dispose()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})

describe("webhooks end to end, verified by a receiver using the standardwebhooks library", () => {
  it("delivers a signed TEST through POST /sandbox/webhooks/test and answers the receiver's reply", async () => {
    const { request } = await platformAt("/hooks")
    const before = received.length
    const response = await request("/sandbox/webhooks/test")
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      url: `${receiverUrl}/hooks`,
      response_status: 200,
      response_body: "thanks"
    })
    const [got] = received.slice(before)
    expect(got).toMatchObject({ path: "/hooks", verified: true, payload: { type: "TEST" } })
    expect(got?.payload).not.toHaveProperty("data")
    expect(got?.payload?.["id"]).toMatch(/^Webhook:[0-9a-f-]{36}$/)

    // An explicit url overrides the endpoint; a receiver's error status is reported, not a delivery error.
    const elsewhere = await request("/sandbox/webhooks/test", { url: `${receiverUrl}/duplicate` })
    expect(elsewhere.body).toEqual({
      url: `${receiverUrl}/duplicate`,
      response_status: 409,
      response_body: "status 409"
    })
    const closed = await request("/sandbox/webhooks/test", { url: "http://127.0.0.1:1/hooks" })
    expect(closed.status).toBe(400)
    expect(closed.body).toMatchObject({
      code: "WEBHOOK_DELIVERY_ERROR",
      details: { kind: "connection_failed" }
    })
  })

  it("delivers a customer's outbox events, each verifying, and signs with both secrets during a rotation", async () => {
    const { platform, request, secret } = await platformAt("/hooks")
    const created = await request("/customers", { customerType: "INDIVIDUAL", fullName: "Kim Lee" })
    expect(created.status).toBe(201)
    const customer = created.body
    const events = await eventsOf(platform.id)
    expect(events.map((event) => event.type)).toContain("CUSTOMER.CREATED")

    const before = received.length
    for (const event of events) expect((await attempt(event))._tag).toBe("Delivered")
    const got = received.slice(before)
    expect(got.every((one) => one.verified)).toBe(true)
    expect(got.map((one) => one.payload?.["id"])).toEqual(events.map((event) => event.id))
    expect(got[0]?.payload).toMatchObject({ type: "CUSTOMER.CREATED", data: { id: customer.id } })

    // Rotate: the next delivery carries both signatures; each secret alone verifies it.
    const rotated = (await request("/webhooks/secret/rotate")).body
    await request("/customers", { customerType: "INDIVIDUAL", fullName: "Ada Lee" })
    const [next] = (await eventsOf(platform.id)).slice(events.length)
    const bodies: Array<{ body: string; headers: Record<string, string> }> = []
    const recorder = createServer((incoming, response) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => {
        bodies.push({
          body: Buffer.concat(chunks).toString(),
          headers: Object.fromEntries(Object.entries(incoming.headers).map(([key, value]) => [key, String(value)]))
        })
        response.end()
      })
    })
    await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve))
    try {
      const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/`
      const sent = await request("/sandbox/webhooks/test", { url })
      expect(sent.status).toBe(200)
      const [one] = bodies
      expect(one?.headers["webhook-signature"]?.split(" ")).toHaveLength(2)
      for (const alone of [secret, rotated.webhookSecret]) {
        expect(new Webhook(alone).verify(one!.body, one!.headers)).toMatchObject({ type: "TEST" })
      }
    } finally {
      await new Promise((resolve) => recorder.close(resolve))
    }
    expect((await attempt(next!))._tag).toBe("Delivered")
  })

  it("retries a receiver answering 500 at the recorded time, then delivers on its 200", async () => {
    const { platform } = await platformAt("/flaky")
    const event = await appendEvent(platform.id)
    const before = received.length
    const startedAt = Date.now()
    const first = await attempt(event)
    if (first._tag !== "RetryAt") return expect.fail(`expected a retry, got ${first._tag}`)
    const wait = DateTime.toEpochMillis(first.at) - startedAt
    expect(wait).toBeGreaterThanOrEqual(4_000 - 1_000)
    expect(wait).toBeLessThanOrEqual(6_000 + 1_000)
    const logged = await run(
      Effect.flatMap(WebhookDeliveries.WebhookDeliveries, (deliveries) =>
        deliveries.get(platform.id, first.delivery.id)
      )
    )
    expect(logged).toMatchObject({ status: "FAILED", attempts: 1, lastResponseStatus: 500 })
    expect(logged.nextAttemptAt && DateTime.toEpochMillis(logged.nextAttemptAt)).toBe(DateTime.toEpochMillis(first.at))
    expect((await attempt(event))._tag).toBe("Delivered")
    expect(received.slice(before).map((one) => [one.path, one.verified])).toEqual([
      ["/flaky", true],
      ["/flaky", true]
    ])
  })

  it("does not retry a 409 (the receiver has the event already)", async () => {
    const { platform } = await platformAt("/duplicate")
    const event = await appendEvent(platform.id)
    const before = received.length
    expect(await attempt(event)).toMatchObject({
      _tag: "Delivered",
      delivery: { status: "DELIVERED", lastResponseStatus: 409 }
    })
    expect(await attempt(event)).toEqual({ _tag: "NothingToDo", reason: "settled" })
    expect(received.length - before).toBe(1)
  })

  it("refuses a production platform's endpoint on a private address before connecting, and logs why", async () => {
    const { platform } = await platformAt("/hooks", "PRODUCTION")
    const event = await appendEvent(platform.id)
    const before = received.length
    const outcome = await attempt(event)
    expect(outcome).toMatchObject({ _tag: "RetryAt", delivery: { status: "FAILED", attempts: 1 } })
    if (outcome._tag === "RetryAt") {
      expect(outcome.delivery.lastError).toMatch(/^https_required: /)
    }
    const https = await run(
      Effect.gen(function* () {
        const platforms = yield* Platforms.Platforms
        const config = new Platform.PlatformConfig({
          ...Platforms.defaultConfig,
          webhookEndpoint: `https://127.0.0.1:${new URL(receiverUrl).port}/hooks`
        })
        return yield* platforms.create({ name: "Private https", environment: "PRODUCTION", config })
      })
    )
    await run(Effect.flatMap(WebhookSecrets.WebhookSecrets, (issued) => issued.rotate(https.id)))
    const refused = await attempt(await appendEvent(https.id))
    expect(refused).toMatchObject({ _tag: "RetryAt", delivery: { status: "FAILED" } })
    if (refused._tag === "RetryAt") {
      expect(refused.delivery.lastError).toMatch(/^address_refused: 127\.0\.0\.1 is a loopback address/)
    }
    expect(received.length).toBe(before)
  })
})
