import { afterAll, beforeAll, expect, it } from "vitest"
import { Platform, Platforms, WebhookDeliveryJob } from "@payrail/core"
import { describeOnEveryStore } from "./payments/OnEveryStore.js"
import { waitFor } from "./Waiting.js"
import { startVerifyingReceiver, type VerifyingReceiver } from "./webhooks/VerifyingReceiver.js"

const hour = 3600

const within = (actualIso: string, expectedMs: number, toleranceMs: number) =>
  expect(Math.abs(Date.parse(actualIso) - expectedMs)).toBeLessThanOrEqual(toleranceMs)

type Clock = { currentTime: string; offsetSeconds: number }

describeOnEveryStore(
  "the sandbox clock",
  "sandbox_clock",
  { handlers: [WebhookDeliveryJob.handler], webhooks: true, running: true },
  (app) => {
    let receiver: VerifyingReceiver

    beforeAll(async () => {
      // The first delivery it gets is answered 500, so that one retry waits on the clock.
      receiver = await startVerifyingReceiver({ failFirst: 1 })
    })
    afterAll(() => receiver.close())

    const platformWith = (
      environment: Platform.Environment,
      options: { readonly endpoint?: string; readonly permissions?: ReadonlyArray<"VIEW" | "MANAGE" | "TRANSACT"> } = {}
    ) =>
      app.newPlatform({
        environment,
        config: new Platform.PlatformConfig({
          ...Platforms.defaultConfig,
          ...(options.endpoint === undefined ? {} : { webhookEndpoint: options.endpoint })
        }),
        ...(options.permissions === undefined ? {} : { permissions: options.permissions })
      })

    it("moves a sandbox platform's time: its clock, its records, its webhooks, and a waiting retry at once", async () => {
      const { call } = await platformWith("SANDBOX", { endpoint: receiver.url })
      receiver.trust(String((await call("POST", "/webhooks/secret/rotate", {})).body["webhookSecret"]))

      const before = await call("GET", "/sandbox/clock")
      expect(before.status).toBe(200)
      expect(before.body["offsetSeconds"]).toBe(0)
      within(String(before.body["currentTime"]), Date.now(), 5_000)

      const advanced = await call("POST", "/sandbox/clock/advance", { seconds: hour })
      expect(advanced.status).toBe(200)
      expect(advanced.body["offsetSeconds"]).toBe(hour)
      within(String(advanced.body["currentTime"]), Date.now() + hour * 1000, 5_000)
      expect((await call("GET", "/sandbox/clock")).body as Clock).toMatchObject({ offsetSeconds: hour })

      // A record made now carries the platform's time.
      const created = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Clock Ahead" })
      expect(created.status).toBe(201)
      within(String(created.body["createdAt"]), Date.now() + hour * 1000, 5_000)

      // Its first delivery is answered 500. The webhook verified although its envelope says an hour from now: the
      // signature's timestamp is real time.
      await waitFor(() => receiver.log.length >= 1, "the first delivery")
      const [first] = receiver.log
      within(first!.timestamp, first!.atMs + hour * 1000, 5_000)
      expect(first!.status).toBe(500)

      // The retry waits 4 s or more of the platform's time; advancing the clock a minute makes it due at once.
      type Listed = { data: Array<{ status: string; attempts: number; nextAttemptAt?: string }> }
      let failed: Listed["data"] = []
      const logged = async () => ((await call("GET", "/webhooks/deliveries")).body as unknown as Listed).data
      for (const deadline = Date.now() + 20_000; failed.length === 0 && Date.now() < deadline;) {
        failed = (await logged()).filter((row) => row.status === "FAILED")
        if (failed.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(failed).toHaveLength(1)
      const nextAttemptAt = Date.parse(String(failed[0]!.nextAttemptAt))
      expect(nextAttemptAt - (first!.atMs + hour * 1000)).toBeGreaterThanOrEqual(3_000)

      expect((await call("POST", "/sandbox/clock/advance", { seconds: 60 })).body["offsetSeconds"]).toBe(hour + 60)
      const tries = () => receiver.log.filter(({ id }) => id === first!.id)
      await waitFor(() => tries().length >= 2, "the retry")
      const [, retry] = tries()
      expect(retry).toMatchObject({ status: 200 })
      // Without the advance the retry would have come 4 s or more after the first attempt.
      expect(retry!.atMs - first!.atMs).toBeLessThan(3_000)
      expect(receiver.refused()).toBe(0)
    })

    it("answers 403 FORBIDDEN to a production platform, which keeps real time", async () => {
      const { call } = await platformWith("PRODUCTION")
      for (const [method, route, body] of [
        ["GET", "/sandbox/clock", undefined],
        ["POST", "/sandbox/clock/advance", { seconds: 60 }]
      ] as const) {
        const refused = await call(method, route, body)
        expect(refused.status).toBe(403)
        expect(refused.body).toMatchObject({ code: "FORBIDDEN", details: { rule: "sandbox_platforms_only" } })
      }
    })

    it("refuses a bad advance with INVALID_INPUT naming seconds, and a VIEW token with 403", async () => {
      const { call } = await platformWith("SANDBOX")
      for (const body of [
        {},
        { seconds: 0 },
        { seconds: -5 },
        { seconds: 1.5 },
        { seconds: "60" },
        { seconds: 31_622_401 }
      ]) {
        const refused = await call("POST", "/sandbox/clock/advance", body)
        expect(refused.status).toBe(400)
        expect(refused.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "seconds" }] } })
      }
      expect((await call("GET", "/sandbox/clock")).body["offsetSeconds"]).toBe(0)

      const viewer = await platformWith("SANDBOX", { permissions: ["VIEW"] })
      expect((await viewer.call("GET", "/sandbox/clock")).status).toBe(200)
      expect((await viewer.call("POST", "/sandbox/clock/advance", { seconds: 60 })).status).toBe(403)
    })

    it("stops the clock 100 years ahead of real time", async () => {
      const { call } = await platformWith("SANDBOX")
      const year = 366 * 24 * hour
      // 99 advances of 366 days reach 36,234 days; one more would pass 36,500.
      for (let index = 0; index < 99; index++) {
        expect((await call("POST", "/sandbox/clock/advance", { seconds: year })).status).toBe(200)
      }
      const refused = await call("POST", "/sandbox/clock/advance", { seconds: year })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "seconds" }] } })
      expect((await call("GET", "/sandbox/clock")).body["offsetSeconds"]).toBe(99 * year)
    })
  }
)
