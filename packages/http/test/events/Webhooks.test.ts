import { expect, it } from "vitest"
import { Effect } from "effect"
import { DomainEvent, Ids, Outbox, Platform, Platforms, WebhookDispatch } from "@payrail/core"
import { makeHarness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"

const endpoint = "https://receiver.example/hooks"

// The harness provides no webhook transport: every attempt fails `not_configured`, which the log records. Sending
// for real is tested end to end in @payrail/server (test/webhooks).
describeOverHttp(
  "webhooks over HTTP",
  { config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, webhookEndpoint: endpoint }) },
  (api, adapter) => {
    const post = (path: string, body?: unknown, auth?: string) =>
      api.request(`${base}${path}`, {
        method: "POST",
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(auth === undefined ? {} : { auth })
      })

    const attemptEvent = (type: string) =>
      api.run(
        Effect.gen(function* () {
          const event = yield* DomainEvent.make(api.platform.id, type, { id: "Customer:1" }).pipe(
            Effect.provide(Ids.layer)
          )
          yield* (yield* Outbox.Outbox).append(event)
          return yield* (yield* WebhookDispatch.WebhookDispatch).attempt(event.id)
        })
      )

    it("rotates the signing secret for MANAGE only, showing the new one once", async () => {
      const view = await api.tokenWith(["VIEW"])
      expect((await post("/webhooks/secret/rotate", undefined, view)).status).toBe(403)
      const response = await post("/webhooks/secret/rotate")
      expect(response.status).toBe(200)
      const body = (await response.json()) as { webhookSecret: string; previousSecretsExpireAt: string }
      expect(body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      const again = (await (await post("/webhooks/secret/rotate")).json()) as { webhookSecret: string }
      expect(again.webhookSecret).not.toBe(body.webhookSecret)
      const overlap = Date.parse(body.previousSecretsExpireAt) - Date.now()
      expect(overlap).toBeGreaterThan(23 * 3_600_000)
      expect(overlap).toBeLessThanOrEqual(24 * 3_600_000)
    })

    it("lists, filters, reads and redelivers logged deliveries, scoped to the platform", async () => {
      const failed = await attemptEvent("CUSTOMER.KYC_APPROVED")
      expect(failed._tag).toBe("RetryAt")
      await attemptEvent("INCOMING_PAYMENT")
      const list = await api.request(`${base}/webhooks/deliveries?limit=1`)
      expect(list.status).toBe(200)
      const page = (await list.json()) as {
        data: Array<Record<string, unknown>>
        hasMore: boolean
        nextCursor?: string
        totalCount: number
      }
      expect(page).toMatchObject({ hasMore: true, totalCount: 2 })
      expect(page.data[0]).toMatchObject({
        eventType: "INCOMING_PAYMENT",
        status: "FAILED",
        attempts: 1,
        url: endpoint,
        lastError: expect.stringMatching(/^not_configured: /)
      })
      const next = (await (await api.request(`${base}/webhooks/deliveries?cursor=${page.nextCursor}`)).json()) as {
        data: Array<{ id: string; eventType: string }>
      }
      expect(next.data.map((found) => found.eventType)).toEqual(["CUSTOMER.KYC_APPROVED"])
      const id = next.data[0]!.id

      const filtered = (await (
        await api.request(`${base}/webhooks/deliveries?eventType=CUSTOMER.KYC_APPROVED&status=FAILED`)
      ).json()) as { data: Array<{ id: string }>; totalCount: number }
      expect(filtered.data.map((found) => found.id)).toEqual([id])
      expect(
        ((await (await api.request(`${base}/webhooks/deliveries?status=DELIVERED`)).json()) as { totalCount: number })
          .totalCount
      ).toBe(0)
      expect((await api.request(`${base}/webhooks/deliveries?status=LOST`)).status).toBe(400)

      const got = await api.request(`${base}/webhooks/deliveries/${id}`)
      expect(got.status).toBe(200)
      expect(await got.json()).toMatchObject({ id, status: "FAILED" })
      const theirs = await api.request(`${base}/webhooks/deliveries/${id}`, { auth: api.otherPlatformBasic })
      expect(theirs.status).toBe(404)
      expect(await theirs.json()).toMatchObject({ code: "NOT_FOUND" })
      expect((await api.request(`${base}/webhooks/deliveries/WebhookDelivery:nope`)).status).toBe(400)

      expect(
        (await post(`/webhooks/deliveries/${id}/redeliver`, undefined, await api.tokenWith(["VIEW"]))).status
      ).toBe(403)
      const redelivered = await post(`/webhooks/deliveries/${id}/redeliver`)
      expect(redelivered.status).toBe(200)
      expect(await redelivered.json()).toMatchObject({ id, status: "PENDING", attempts: 1 })
      expect((await post(`/webhooks/deliveries/${id}/redeliver`, undefined, api.otherPlatformBasic)).status).toBe(404)
    })

    it("answers the test webhook's errors with the spec's codes", async () => {
      const failing = await post("/sandbox/webhooks/test", {})
      expect(failing.status).toBe(400)
      expect(await failing.json()).toMatchObject({
        code: "WEBHOOK_DELIVERY_ERROR",
        details: { url: endpoint, kind: "not_configured" }
      })
      const unset = await post("/sandbox/webhooks/test", {}, api.otherPlatformBasic)
      expect(unset.status).toBe(400)
      expect(await unset.json()).toMatchObject({ code: "WEBHOOK_ENDPOINT_NOT_SET" })
      const invalid = await post("/sandbox/webhooks/test", { url: "ftp://example.com/" })
      expect(invalid.status).toBe(400)
      expect(await invalid.json()).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "url" }] } })
      expect((await post("/sandbox/webhooks/test", {}, await api.tokenWith(["VIEW"]))).status).toBe(403)
    })

    it("refuses the test webhook to a production platform", async () => {
      const production = await makeHarness({ storage: adapter.storage(), environment: "PRODUCTION" })
      try {
        const response = await production.request(`${base}/sandbox/webhooks/test`, {
          method: "POST",
          body: JSON.stringify({ url: "https://receiver.example/" })
        })
        expect(response.status).toBe(403)
        expect(await response.json()).toMatchObject({ code: "FORBIDDEN", details: { rule: "sandbox_platforms_only" } })
      } finally {
        await production.dispose()
      }
    })
  }
)
