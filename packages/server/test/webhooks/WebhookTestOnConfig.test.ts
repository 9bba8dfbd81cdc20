import { afterAll, expect, it } from "vitest"
import { Platform, Platforms } from "@payrail/core"
import * as Workers from "../../src/Workers.js"
import { describeOnEveryStore } from "../payments/OnEveryStore.js"
import { waitFor } from "../Waiting.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "./VerifyingReceiver.js"

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// The server's own handlers, as `payrail serve` runs them.
describeOnEveryStore(
  "the TEST webhook of a configured endpoint",
  "webhook_test_on_config",
  { handlers: Workers.handlers, webhooks: true, running: true },
  (app) => {
    const receivers: Array<VerifyingReceiver> = []
    afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())))

    const receiver = async (options: { readonly failFirst?: number } = {}) => {
      const started = await startVerifyingReceiver(options)
      receivers.push(started)
      return started
    }

    const platform = async () => {
      const { call } = await app.newPlatform({
        config: new Platform.PlatformConfig({ ...Platforms.defaultConfig }),
        permissions: ["VIEW", "MANAGE"]
      })
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
  }
)
