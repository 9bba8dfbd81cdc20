import { once } from "node:events"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Receiver from "../src/Receiver.js"
import { type PayrailServer, startPayrailServer } from "./PayrailServer.js"

/*
 * The receiver against a real reference server (its own process, on an ephemeral port): the server signs and sends
 * the webhooks over HTTP, the receiver verifies them with the standardwebhooks library.
 */

let payrail: PayrailServer
let receiver: Server
let url: string
const received: Array<Receiver.PayrailEvent> = []

const api = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`${payrail.apiBase}${route}`, {
    method,
    headers: { authorization: payrail.authorization, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() }
}

const waitFor = async (what: string, found: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!found()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  payrail = await startPayrailServer("source", { PAYRAIL_STORAGE: "memory" })
  receiver = Receiver.make({ secret: payrail.webhookSecret, onEvent: (event) => void received.push(event) })
  receiver.listen(0, "127.0.0.1")
  await once(receiver, "listening")
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`
})

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve))
  await payrail?.stop()
})

describe("a platform backend receiving Payrail's webhooks", () => {
  it("accepts the signed TEST webhook the server sends on POST /sandbox/webhooks/test", async () => {
    const sent = await api("POST", "/sandbox/webhooks/test", { url })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ url, response_status: 200, response_body: '{"received":true}' })
    expect(received.filter((event) => event.type === "TEST")).toHaveLength(1)
  })

  it("accepts, once, the INCOMING_PAYMENT of a sandbox funding delivered by the server's job worker", async () => {
    expect((await api("PATCH", "/config", { webhookEndpoint: url })).status).toBe(200)
    const customer = await api("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Rita Receiver" })
    expect(customer.status).toBe(201)
    const accounts = await api("GET", `/internal-accounts?customerId=${customer.body.id}`)
    const usd = accounts.body.data.find(
      (account: { type: string; balance: { currency: { code: string } } }) =>
        account.type !== "EMBEDDED_WALLET" && account.balance.currency.code === "USD"
    )
    expect((await api("POST", `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 10_000 })).status).toBe(200)
    const incoming = () => received.filter((event) => event.type === "INCOMING_PAYMENT")
    await waitFor("the INCOMING_PAYMENT webhook", () => incoming().length > 0)
    expect(incoming()).toHaveLength(1)
    expect(incoming()[0]?.data).toMatchObject({ status: "COMPLETED", customerId: customer.body.id })
    // The server records the receiver's 200 once the answer is in (just after the receiver handled the event).
    let deliveries = await api("GET", "/webhooks/deliveries?eventType=INCOMING_PAYMENT")
    const deadline = Date.now() + 20_000
    while (deliveries.body.data[0]?.status !== "DELIVERED" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      deliveries = await api("GET", "/webhooks/deliveries?eventType=INCOMING_PAYMENT")
    }
    expect(deliveries.body.data).toEqual([
      expect.objectContaining({ url, status: "DELIVERED", lastResponseStatus: 200, attempts: 1 })
    ])
  })

  it("refuses a real webhook whose body was tampered with or re-signed with another secret; a replay answers 409", async () => {
    // A real TEST webhook as the server signs and sends it, caught by a recorder instead of the receiver.
    let caught: { body: string; headers: Record<string, string> } | undefined
    const recorder = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const headers: Record<string, string> = {}
        for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
          headers[name] = String(request.headers[name])
        }
        caught = { body: Buffer.concat(chunks).toString("utf8"), headers }
        response.writeHead(200).end()
      })
    })
    recorder.listen(0, "127.0.0.1")
    await once(recorder, "listening")
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/`
    try {
      expect((await api("POST", "/sandbox/webhooks/test", { url: recorderUrl })).status).toBe(200)
    } finally {
      await new Promise((resolve) => recorder.close(resolve))
    }
    const { body, headers } = caught!
    const id = headers["webhook-id"]!
    const post = (payload: string, sent: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", ...sent }, body: payload })
    const foreign = new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).sign(
      id,
      new Date(Number(headers["webhook-timestamp"]) * 1000),
      body
    )
    expect((await post(body.replace('"TEST"', '"CUSTOMER.KYC_APPROVED"'), headers)).status).toBe(401)
    expect((await post(`${body} `, headers)).status).toBe(401)
    expect((await post(body, { ...headers, "webhook-signature": foreign })).status).toBe(401)
    expect((await post(body, {})).status).toBe(401)
    // Only verified events reach the handler (the server's other webhooks may arrive meanwhile: their ids differ).
    const handled = () => received.filter((event) => event.id === id).length
    expect(handled()).toBe(0)
    expect((await post(body, headers)).status).toBe(200)
    expect((await post(body, headers)).status).toBe(409)
    expect(handled()).toBe(1)
  })
})
