import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Queue } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { WebhookTransport } from "@payrail/core"
import * as NodeWebhookTransport from "../../src/webhooks/NodeWebhookTransport.js"

// A local receiver: `/ok` answers 200 with the request body echoed, `/redirect` a 302 to `/ok`, `/huge` 4 MiB,
// `/silent` never answers. Every path it was asked for is kept, and the client port of each request's connection.
const requested: Array<string> = []
const clientPorts: Array<number | undefined> = []
let server: Server
let port = 0

const handle = (request: IncomingMessage, response: ServerResponse) => {
  requested.push(request.url ?? "")
  clientPorts.push(request.socket.remotePort)
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    switch (request.url) {
      case "/ok":
        response.writeHead(200, { "content-type": "application/json" })
        response.end(
          JSON.stringify({
            received: Buffer.concat(chunks).toString(),
            signature: request.headers["webhook-signature"]
          })
        )
        return
      case "/redirect":
        response.writeHead(302, { location: "/ok" })
        response.end()
        return
      case "/huge":
        response.writeHead(200)
        for (let index = 0; index < 64; index++) response.write("x".repeat(64 * 1024))
        response.end()
        return
      case "/silent":
        return
      default:
        response.writeHead(404)
        response.end()
    }
  })
}

beforeAll(async () => {
  server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const transport = NodeWebhookTransport.make({ timeout: Duration.millis(500), maxResponseBytes: 1024 })

const send = (url: string, environment: "SANDBOX" | "PRODUCTION" = "SANDBOX", using = transport) =>
  Effect.either(
    using.send({ url, environment, body: '{"id":"Webhook:1"}', headers: { "webhook-signature": "v1,abc" } })
  )

const refusedWith = (result: Either.Either<WebhookTransport.WebhookResponse, WebhookTransport.WebhookSendFailed>) =>
  Either.match(result, { onLeft: (failure) => failure, onRight: () => undefined })

// A resolver that counts its lookups: the first answers `first`, every later one `later` (where a name moved to).
const countingResolver = (first: string, later: string = first) => {
  let lookups = 0
  return {
    resolve: () => {
      lookups++
      return Promise.resolve([{ address: lookups === 1 ? first : later, family: 4 }])
    },
    lookups: () => lookups
  }
}

describe("NodeWebhookTransport", () => {
  it.effect("posts the body and headers to a sandbox platform's loopback receiver and reads its answer", () =>
    Effect.gen(function* () {
      const result = yield* send(`http://127.0.0.1:${port}/ok`)
      const response = Either.getOrThrow(result)
      expect(response.status).toBe(200)
      expect(JSON.parse(response.body)).toEqual({ received: '{"id":"Webhook:1"}', signature: "v1,abc" })
      expect(response.latencyMillis).toBeGreaterThanOrEqual(0)
    })
  )

  it.effect("refuses private, loopback, link-local and metadata addresses for a production platform", () =>
    Effect.gen(function* () {
      const before = requested.length
      for (const url of [
        `https://127.0.0.1:${port}/ok`,
        "https://10.0.0.7/hooks",
        "https://192.168.1.1/hooks",
        "https://100.64.0.1/hooks",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hooks",
        "https://[fd00:ec2::254]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://224.0.0.1/hooks",
        `https://localhost:${port}/ok`
      ]) {
        const failure = refusedWith(yield* send(url, "PRODUCTION"))
        expect(failure?.kind, url).toBe("address_refused")
      }
      const metadata = refusedWith(yield* send("https://169.254.169.254/", "PRODUCTION"))
      expect(metadata?.message).toContain("metadata")
      expect(requested.length).toBe(before)
    })
  )

  it.effect("refuses a host name that resolves to a private address, checking every address it has", () =>
    Effect.gen(function* () {
      const resolving = NodeWebhookTransport.make({
        resolve: () =>
          Promise.resolve([
            { address: "93.184.216.34", family: 4 },
            { address: "10.1.2.3", family: 4 }
          ])
      })
      const failure = refusedWith(yield* send("https://hooks.example.com/in", "PRODUCTION", resolving))
      expect(failure).toMatchObject({ kind: "address_refused" })
      expect(failure?.message).toContain("10.1.2.3")
    })
  )

  it.effect("connects to the address it checked, not to what the name resolves to later (no DNS rebind)", () =>
    Effect.gen(function* () {
      // First answer: the loopback receiver; any later lookup would point elsewhere.
      const resolver = countingResolver("127.0.0.1", "10.9.9.9")
      const rebinding = NodeWebhookTransport.make({ resolve: resolver.resolve })
      const response = Either.getOrThrow(yield* send(`http://rebind.test:${port}/ok`, "SANDBOX", rebinding))
      expect(response.status).toBe(200)
      expect(resolver.lookups()).toBe(1)
    })
  )

  it.effect("requires https for a production platform and refuses URLs it cannot use", () =>
    Effect.gen(function* () {
      expect(refusedWith(yield* send("http://93.184.216.34/hooks", "PRODUCTION"))?.kind).toBe("https_required")
      expect(refusedWith(yield* send("ftp://93.184.216.34/hooks"))?.kind).toBe("invalid_url")
      expect(refusedWith(yield* send("not a url"))?.kind).toBe("invalid_url")
      expect(refusedWith(yield* send(`http://user:pw@127.0.0.1:${port}/ok`))?.kind).toBe("invalid_url")
      expect(refusedWith(yield* send("http://does-not-exist.invalid/"))?.kind).toBe("dns_failed")
    })
  )

  it.effect("does not follow a redirect: a 302 is the answer", () =>
    Effect.gen(function* () {
      const before = requested.length
      const response = Either.getOrThrow(yield* send(`http://127.0.0.1:${port}/redirect`))
      expect(response.status).toBe(302)
      expect(requested.slice(before)).toEqual(["/redirect"])
    })
  )

  it.effect("cuts a huge response body at the limit", () =>
    Effect.gen(function* () {
      const response = Either.getOrThrow(yield* send(`http://127.0.0.1:${port}/huge`))
      expect(response.status).toBe(200)
      expect(response.body.length).toBe(1024)
    })
  )

  it.effect("gives up on a receiver that never answers, and on a closed port", () =>
    Effect.gen(function* () {
      expect(refusedWith(yield* send(`http://127.0.0.1:${port}/silent`))?.kind).toBe("timeout")
      expect(refusedWith(yield* send("http://127.0.0.1:1/ok"))?.kind).toBe("connection_failed")
    })
  )
  it.effect("keeps connections to a receiver alive for consecutive webhooks", () =>
    Effect.gen(function* () {
      const keeping = NodeWebhookTransport.make()
      const before = clientPorts.length
      for (let index = 0; index < 10; index++) {
        expect(Either.getOrThrow(yield* send(`http://127.0.0.1:${port}/ok`, "SANDBOX", keeping)).status).toBe(200)
      }
      // undici's pool opens a spare connection beside the first while the first is busy; never one per webhook.
      expect(new Set(clientPorts.slice(before)).size).toBeLessThanOrEqual(2)
    })
  )

  it.effect("never sends over a kept-alive connection to an address the name no longer resolves to", () =>
    Effect.gen(function* () {
      // The same name first resolves to the loopback receiver, then elsewhere: the connection kept from the first
      // webhook leads to the old address and must not carry the second.
      const moving = NodeWebhookTransport.make({
        timeout: Duration.millis(300),
        resolve: countingResolver("127.0.0.1", "10.9.9.9").resolve
      })
      const before = requested.length
      expect(Either.getOrThrow(yield* send(`http://moving.test:${port}/ok`, "SANDBOX", moving)).status).toBe(200)
      const second = refusedWith(yield* send(`http://moving.test:${port}/ok`, "SANDBOX", moving))
      expect(["timeout", "connection_failed"]).toContain(second?.kind)
      expect(requested.length - before).toBe(1)
    })
  )

  it.effect("sends again on a new connection when the receiver closed the kept-alive one meanwhile", () =>
    Effect.gen(function* () {
      // This receiver answers the first request of each connection and drops the connection on the next one, as
      // a receiver closing an idle connection at the moment a webhook arrives would.
      const perSocket = new WeakMap<object, number>()
      let received = 0
      const closing = createServer((request, response) => {
        received++
        const count = (perSocket.get(request.socket) ?? 0) + 1
        perSocket.set(request.socket, count)
        if (count > 1) {
          request.socket.destroy()
          return
        }
        request.resume()
        request.on("end", () => response.writeHead(204).end())
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => closing.listen(0, "127.0.0.1", resolve))),
        () =>
          Effect.promise(() => {
            closing.closeAllConnections()
            return new Promise((resolve) => closing.close(resolve))
          })
      )
      const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/hooks`
      const keeping = NodeWebhookTransport.make()
      for (let index = 0; index < 6; index++) {
        expect(Either.getOrThrow(yield* send(url, "SANDBOX", keeping)).status).toBe(204)
      }
      // Every webhook answered, though each kept-alive connection was dropped on its second request: those were
      // sent again on a new connection (at most 2 connections are open at a time, so some webhooks were resent).
      expect(received).toBeGreaterThan(6)
    }).pipe(Effect.scoped)
  )

  it.effect("sendAll answers every request of a batch once, by its index, checking each URL once", () =>
    Effect.gen(function* () {
      const resolver = countingResolver("127.0.0.1")
      const resolving = NodeWebhookTransport.make({ timeout: Duration.millis(500), resolve: resolver.resolve })
      const urls = [
        `http://batch.test:${port}/ok`,
        `http://batch.test:${port}/redirect`,
        "ftp://batch.test/ok",
        `http://batch.test:${port}/ok`,
        `http://batch.test:${port}/missing`
      ]
      const answers = yield* Queue.unbounded<WebhookTransport.Answer>()
      yield* resolving.sendAll(
        urls.map((url, index) => ({
          url,
          environment: "SANDBOX" as const,
          body: `{"id":"Webhook:${index}"}`,
          headers: { "webhook-signature": "v1,abc" }
        })),
        answers
      )
      const byIndex = new Map<number, WebhookTransport.Answer["result"]>()
      for (let count = 0; count < urls.length; count++) {
        const { index, result } = yield* Queue.take(answers)
        expect(byIndex.has(index)).toBe(false)
        byIndex.set(index, result)
      }
      const resultOf = (index: number) => {
        const result = byIndex.get(index)
        if (result === undefined) throw new Error(`no answer to request ${index}`)
        return result
      }
      const statusOf = (index: number) => Either.getOrThrow(resultOf(index)).status
      expect([statusOf(0), statusOf(1), statusOf(3), statusOf(4)]).toEqual([200, 302, 200, 404])
      expect(JSON.parse(Either.getOrThrow(resultOf(3)).body)).toMatchObject({
        received: '{"id":"Webhook:3"}'
      })
      expect(refusedWith(resultOf(2))).toMatchObject({ kind: "invalid_url" })
      // The three http URLs (`/ok` twice) resolved once each; the ftp one is refused before any lookup.
      expect(resolver.lookups()).toBe(3)
      expect(yield* Queue.size(answers)).toBe(0)
    }).pipe(Effect.scoped)
  )

  it.effect("sendAll abandons the requests not answered when its scope closes", () =>
    Effect.gen(function* () {
      const before = requested.length
      const answers = yield* Queue.unbounded<WebhookTransport.Answer>()
      const request = { environment: "SANDBOX" as const, body: "{}", headers: {} }
      yield* transport
        .sendAll(
          [
            { ...request, url: `http://127.0.0.1:${port}/silent` },
            { ...request, url: `http://127.0.0.1:${port}/silent` }
          ],
          answers
        )
        .pipe(Effect.scoped)
      // Past the transport's timeout (500 ms): an abandoned request is never answered, not even with a timeout.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 700)))
      expect(requested.length - before).toBeLessThanOrEqual(2)
      expect(yield* Queue.size(answers)).toBe(0)
    })
  )
})
