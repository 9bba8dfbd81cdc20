import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Domain, Ids, JobWorker, Platforms, type Storage } from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import * as Workers from "../../src/Workers.js"
import * as NodeWebhookTransport from "../../src/webhooks/NodeWebhookTransport.js"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "./VerifyingReceiver.js"

const base = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL

const waitFor = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 20_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Services = Domain.Services | Storage.Services | Ids.Ids

const suite = (
  name: string,
  storage: () => Promise<{ layer: Layer.Layer<Storage.Services, unknown>; dispose: () => Promise<void> }>
) =>
  describe(`the TEST webhook of a configured endpoint on ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
    let web: ReturnType<typeof WebHandler.make>
    let dispose = async () => {}
    const receivers: Array<VerifyingReceiver> = []

    beforeAll(async () => {
      const store = await storage()
      dispose = store.dispose
      const services = Domain.layer.pipe(
        Layer.provide(NodeWebhookTransport.layer()),
        Layer.provideMerge(store.layer),
        Layer.provide(Sandbox.layer),
        Layer.provideMerge(Ids.layer)
      )
      // The server's own handlers, as `payrail serve` runs them.
      const worker = Layer.scopedDiscard(
        Effect.forkScoped(
          JobWorker.run(Workers.handlers, {
            concurrency: 4,
            lease: Duration.seconds(30),
            shutdownGrace: Duration.seconds(1)
          })
        )
      )
      runtime = ManagedRuntime.make(Layer.provideMerge(worker, services))
      const context = await runtime.runPromise(Effect.context<Services>())
      web = WebHandler.make({ services: Layer.succeedContext(context) })
    })

    afterAll(async () => {
      await web.dispose()
      await runtime.dispose()
      await dispose()
      await Promise.all(receivers.map((receiver) => receiver.close()))
    })

    const receiver = async (options: { readonly failFirst?: number } = {}) => {
      const started = await startVerifyingReceiver(options)
      receivers.push(started)
      return started
    }

    const platform = async () => {
      const basic = await runtime.runPromise(
        Effect.gen(function* () {
          const platforms = yield* Platforms.Platforms
          const created = yield* platforms.create({ name: "Configuring", environment: "SANDBOX" })
          const issued = yield* platforms.issueToken({
            platformId: created.id,
            name: "config",
            permissions: ["VIEW", "MANAGE"]
          })
          return `Basic ${btoa(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`)}`
        })
      )
      const call = async (method: string, route: string, body?: unknown) => {
        const response = await web.handler(
          new Request(`http://payrail.test${base}${route}`, {
            method,
            headers: { authorization: basic, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        )
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }
      const secret = String((await call("POST", "/webhooks/secret/rotate", {})).body["webhookSecret"])
      return { call, secret }
    }

    it("sends one signed TEST when the endpoint is set or changed, none for the same URL or a refused change", async () => {
      const { call, secret } = await platform()
      const first = await receiver()
      const second = await receiver()
      first.trust(secret)
      second.trust(secret)

      expect((await call("PATCH", "/config", { webhookEndpoint: first.url })).status).toBe(200)
      await waitFor(() => first.log.length === 1, "the TEST webhook")
      expect(first.log[0]).toMatchObject({ type: "TEST", status: 200 })
      expect(first.log[0]?.id).toMatch(/^Webhook:[0-9a-f-]{36}$/)

      // The same URL again, another field, a refused change: no TEST.
      expect((await call("PATCH", "/config", { webhookEndpoint: first.url })).status).toBe(200)
      expect((await call("PATCH", "/config", { umaDomain: "pay.example.com" })).status).toBe(200)
      const refused = await call("PATCH", "/config", { webhookEndpoint: second.url, umaDomain: "not a domain" })
      expect(refused.status).toBe(400)
      // A changed URL: one TEST to the new one.
      expect((await call("PATCH", "/config", { webhookEndpoint: second.url })).status).toBe(200)
      await waitFor(() => second.log.length === 1, "the second TEST webhook")
      await pause(500)
      expect(first.log).toHaveLength(1)
      expect(second.log.map(({ type }) => type)).toEqual(["TEST"])
      expect(first.refused() + second.refused()).toBe(0)

      // The TEST opens no delivery in the log.
      expect((await call("GET", "/webhooks/deliveries")).body["data"]).toEqual([])
    })

    it("does not retry a TEST the receiver answered 500", async () => {
      const { call, secret } = await platform()
      const failing = await receiver({ failFirst: 1 })
      failing.trust(secret)
      expect((await call("PATCH", "/config", { webhookEndpoint: failing.url })).status).toBe(200)
      await waitFor(() => failing.log.length === 1, "the TEST webhook")
      expect(failing.log[0]).toMatchObject({ type: "TEST", status: 500 })
      // A retry of the job's policy would come within about a second.
      await pause(2_500)
      expect(failing.log).toHaveLength(1)
    })
  })

suite("memory", async () => ({ layer: StorageMemory.layer, dispose: async () => {} }))
suite("PGlite", async () => ({ layer: StoragePostgres.layerPglite(), dispose: async () => {} }))
if (databaseUrl !== undefined) {
  let database: TemporaryDatabase | undefined
  suite("PostgreSQL", async () => {
    database = await createTemporaryDatabase(databaseUrl, "webhook_test_on_config")
    return {
      layer: StoragePostgres.layerPostgres(Redacted.make(database.url)),
      dispose: async () => database?.drop()
    }
  })
}
