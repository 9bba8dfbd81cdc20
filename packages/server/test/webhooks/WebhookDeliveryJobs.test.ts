import { afterAll, beforeAll, expect, it } from "vitest"
import { Effect } from "effect"
import { Outbox, Platform, Platforms, WebhookDeliveryJob } from "@payrail/core"
import { describeOnEveryStore } from "../payments/OnEveryStore.js"
import { waitFor } from "../Waiting.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "./VerifyingReceiver.js"

// The worker runs beside the API for as long as the app lives, as `payrail serve` runs it.
describeOnEveryStore(
  "webhook delivery jobs",
  "webhook_jobs",
  { handlers: [WebhookDeliveryJob.handler], webhooks: true, running: true },
  (app) => {
    let receiver: VerifyingReceiver

    beforeAll(async () => {
      receiver = await startVerifyingReceiver()
    })
    afterAll(() => receiver.close())

    const waitForDeliveries = (condition: () => boolean, what: string) =>
      waitFor(condition, () => `${what}: ${receiver.accepted.length} accepted, ${receiver.refused()} refused`, {
        everyMs: 25
      })

    it("delivers every event of a platform with an endpoint once, signed, without anyone calling attempt", async () => {
      const { platform, call } = await app.newPlatform({
        config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: receiver.url })
      })
      const post = (route: string, body: unknown) => call("POST", route, body)
      receiver.trust((await post("/webhooks/secret/rotate", {})).body.webhookSecret)

      for (let index = 0; index < 10; index++) {
        expect((await post("/customers", { customerType: "INDIVIDUAL", fullName: `Jobs ${index}` })).status).toBe(201)
      }
      const events = (await app.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000))))
        .filter((event) => event.platformId === platform.id)
        .map((event) => event.id)
      expect(events.length).toBeGreaterThanOrEqual(10)
      await waitForDeliveries(() => receiver.accepted.length >= events.length, `${events.length} deliveries`)
      // Each event exactly once (nothing else is failing, so at-least-once is exactly once), each verified.
      expect([...receiver.accepted].sort()).toEqual([...events].sort())
      expect(receiver.refused()).toBe(0)

      // The log shows each delivery DELIVERED after one attempt (its row is settled just after the receiver answers).
      type Listed = { data: Array<{ id: string; eventId: string; status: string; attempts: number }> }
      let listed: Listed = { data: [] }
      const deliveredAll = async () => {
        listed = (await call("GET", "/webhooks/deliveries?limit=100")).body as unknown as Listed
        return listed.data.length === events.length && listed.data.every((row) => row.status === "DELIVERED")
      }
      await waitFor(deliveredAll, () => `every delivery DELIVERED: ${JSON.stringify(listed.data)}`, { everyMs: 25 })
      expect(listed.data.map((row) => row.attempts)).toEqual(events.map(() => 1))

      // A manual redelivery sends the event again.
      const delivery = listed.data[0]
      expect((await post(`/webhooks/deliveries/${delivery?.id}/redeliver`, {})).status).toBe(200)
      await waitForDeliveries(() => receiver.accepted.length === events.length + 1, "the redelivery")
      expect(receiver.accepted.at(-1)).toBe(delivery?.eventId)
    }, 60_000)
  }
)
