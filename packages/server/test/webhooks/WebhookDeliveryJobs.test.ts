import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Domain, Ids, JobWorker, Outbox, Platform, Platforms, type Storage, WebhookDeliveryJob } from "@payrail/core"
import { WebHandler } from "@payrail/http"
import { Sandbox } from "@payrail/sandbox"
import { StorageMemory } from "@payrail/storage-memory"
import { StoragePostgres } from "@payrail/storage-postgres"
import * as NodeWebhookTransport from "../../src/webhooks/NodeWebhookTransport.js"
import { createTemporaryDatabase, type TemporaryDatabase } from "../TemporaryDatabase.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "./VerifyingReceiver.js"

const base = "/2025-10-13"
const databaseUrl = process.env.DATABASE_URL

const waitFor = async (receiver: VerifyingReceiver, condition: () => boolean, what: string) => {
  const deadline = Date.now() + 20_000
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}: ${receiver.accepted.length} accepted, ${receiver.refused()} refused`
      )
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

type Services = Domain.Services | Storage.Services | Ids.Ids

const suite = (
  name: string,
  storage: () => Promise<{ layer: Layer.Layer<Storage.Services, unknown>; dispose: () => Promise<void> }>
) =>
  describe(`webhook delivery jobs on ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
    let receiver: VerifyingReceiver
    let web: ReturnType<typeof WebHandler.make>
    let dispose = async () => {}

    beforeAll(async () => {
      receiver = await startVerifyingReceiver()
      const store = await storage()
      dispose = store.dispose
      const services = Domain.layer.pipe(
        Layer.provide(NodeWebhookTransport.layer()),
        Layer.provideMerge(store.layer),
        Layer.provide(Sandbox.layer),
        Layer.provideMerge(Ids.layer)
      )
      // The worker runs beside the API for as long as the runtime lives, as `payrail serve` runs it.
      const worker = Layer.scopedDiscard(
        Effect.forkScoped(
          JobWorker.run([WebhookDeliveryJob.handler], {
            concurrency: 8,
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
      await receiver.close()
    })

    it("delivers every event of a platform with an endpoint once, signed, without anyone calling attempt", async () => {
      const { platform, basic } = await runtime.runPromise(
        Effect.gen(function* () {
          const platforms = yield* Platforms.Platforms
          const config = new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: receiver.url })
          const platform = yield* platforms.create({ name: "Receiving", environment: "SANDBOX", config })
          const issued = yield* platforms.issueToken({
            platformId: platform.id,
            name: "jobs",
            permissions: ["VIEW", "TRANSACT", "MANAGE"]
          })
          return { platform, basic: `Basic ${btoa(`${issued.token.clientId}:${Redacted.value(issued.clientSecret)}`)}` }
        })
      )
      const post = (route: string, body: unknown) =>
        web.handler(
          new Request(`http://payrail.test${base}${route}`, {
            method: "POST",
            headers: { authorization: basic, "content-type": "application/json" },
            body: JSON.stringify(body)
          })
        )
      receiver.trust(
        ((await (await post("/webhooks/secret/rotate", {})).json()) as { webhookSecret: string }).webhookSecret
      )

      for (let index = 0; index < 10; index++) {
        expect((await post("/customers", { customerType: "INDIVIDUAL", fullName: `Jobs ${index}` })).status).toBe(201)
      }
      const events = (await runtime.runPromise(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000))))
        .filter((event) => event.platformId === platform.id)
        .map((event) => event.id)
      expect(events.length).toBeGreaterThanOrEqual(10)
      await waitFor(receiver, () => receiver.accepted.length >= events.length, `${events.length} deliveries`)
      // Each event exactly once (nothing else is failing, so at-least-once is exactly once), each verified.
      expect([...receiver.accepted].sort()).toEqual([...events].sort())
      expect(receiver.refused()).toBe(0)

      // The log shows each delivery DELIVERED after one attempt (its row is settled just after the receiver answers).
      type Listed = { data: Array<{ id: string; eventId: string; status: string; attempts: number }> }
      let listed: Listed = { data: [] }
      const deliveredAll = async () => {
        listed = (await (
          await web.handler(
            new Request(`http://payrail.test${base}/webhooks/deliveries?limit=100`, {
              headers: { authorization: basic }
            })
          )
        ).json()) as Listed
        return listed.data.length === events.length && listed.data.every((row) => row.status === "DELIVERED")
      }
      const deadline = Date.now() + 20_000
      while (!(await deliveredAll())) {
        if (Date.now() > deadline) throw new Error(`deliveries not all DELIVERED: ${JSON.stringify(listed.data)}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      expect(listed.data.map((row) => row.attempts)).toEqual(events.map(() => 1))

      // A manual redelivery sends the event again.
      const delivery = listed.data[0]
      expect((await post(`/webhooks/deliveries/${delivery?.id}/redeliver`, {})).status).toBe(200)
      await waitFor(receiver, () => receiver.accepted.length === events.length + 1, "the redelivery")
      expect(receiver.accepted.at(-1)).toBe(delivery?.eventId)
    }, 60_000)
  })

suite("memory", async () => ({ layer: StorageMemory.layer, dispose: async () => {} }))
suite("PGlite", async () => ({ layer: StoragePostgres.layerPglite(), dispose: async () => {} }))
if (databaseUrl !== undefined) {
  let database: TemporaryDatabase | undefined
  suite("PostgreSQL", async () => {
    database = await createTemporaryDatabase(databaseUrl, "webhook_jobs")
    return {
      layer: StoragePostgres.layerPostgres(Redacted.make(database.url)),
      dispose: async () => database?.drop()
    }
  })
}
