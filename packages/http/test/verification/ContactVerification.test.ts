import { Effect, Option, Redacted } from "effect"
import { ContactCodeRepo, Customer, Outbox } from "@payrail/core"
import { SandboxOtpDelivery } from "@payrail/sandbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

interface Api {
  readonly api: Harness
  readonly create: (overrides?: Record<string, unknown>) => Promise<{ id: string }>
  readonly call: (id: string, route: string, body?: unknown) => Promise<Response>
}

const setUp = async (api: Harness): Promise<Api> => ({
  api,
  create: async (overrides = {}) => {
    const response = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({
        customerType: "INDIVIDUAL",
        fullName: "Marie Curie",
        email: `marie-${crypto.randomUUID()}@example.com`,
        phoneNumber: "+33612345678",
        region: "FR",
        ...overrides
      })
    })
    expect(response.status).toBe(201)
    return response.json()
  },
  call: (id, route, body) =>
    api.request(`${base}/customers/${id}/${route}`, {
      method: "POST",
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
})

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`contact verification on a sandbox platform on ${adapter.name}`, () => {
    let t: Api

    beforeAll(async () => {
      t = await setUp(await makeHarness({ storage: adapter.storage() }))
    })
    afterAll(() => t.api.dispose())

    it("creates customers of a verifying region with both contacts PENDING, others without contactVerification", async () => {
      expect(await t.create()).toMatchObject({ contactVerification: { email: "PENDING", phone: "PENDING" } })
      const us = await t.create({ region: "US" })
      expect(us).not.toHaveProperty("contactVerification")
    })

    it.each([
      ["verify-email", "email"],
      ["verify-phone", "phone"]
    ])("%s sends a code (204); confirming 123456 answers the customer with %s VERIFIED", async (route, channel) => {
      const customer = await t.create()
      const sent = await t.call(customer.id, route)
      expect(sent.status).toBe(204)
      const confirmed = await t.call(customer.id, `${route}/confirm`, { code: "123456" })
      expect(confirmed.status).toBe(200)
      const body = await confirmed.json()
      expect(body.contactVerification[channel]).toBe("VERIFIED")
      expect(body.contactVerification[channel === "email" ? "phone" : "email"]).toBe("PENDING")
      const read = await (await t.api.request(`${base}/customers/${customer.id}`)).json()
      expect(read.contactVerification[channel]).toBe("VERIFIED")
      // Already verified: nothing more to send or confirm.
      const again = await t.call(customer.id, route)
      expect(again.status).toBe(409)
      expect((await again.json()).details.rule).toBe("contact_already_verified")
    })

    it("records CUSTOMER.UPDATED with the verified customer", async () => {
      const customer = await t.create()
      await t.call(customer.id, "verify-email")
      await t.call(customer.id, "verify-email/confirm", { code: "123456" })
      const events = await t.api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
      const updates = events.filter((event) => event.type === "CUSTOMER.UPDATED" && event.data["id"] === customer.id)
      expect(updates.map((event) => event.data["contactVerification"])).toContainEqual({
        email: "VERIFIED",
        phone: "PENDING"
      })
    })

    it.each(["US", "BR", "SG"])(
      "answers 409 for a customer of region %s, and for one without a region",
      async (region) => {
        for (const customer of [await t.create({ region }), await t.create({ region: undefined })]) {
          for (const route of ["verify-email", "verify-phone"]) {
            const response = await t.call(customer.id, route)
            expect(response.status).toBe(409)
            expect(await response.json()).toMatchObject({
              code: "CONFLICT",
              details: { rule: "contact_verification_not_used" }
            })
            const confirm = await t.call(customer.id, `${route}/confirm`, { code: "123456" })
            expect(confirm.status).toBe(409)
          }
        }
      }
    )

    it.each(["DE", "GB", "CH", "NO", "IS"])("verifies contacts of region %s", async (region) => {
      const customer = await t.create({ region })
      expect((await t.call(customer.id, "verify-email")).status).toBe(204)
    })

    it("answers 409 when there is no email or phone to verify", async () => {
      const customer = await t.create({ email: undefined, phoneNumber: undefined })
      const email = await t.call(customer.id, "verify-email")
      expect(email.status).toBe(409)
      expect((await email.json()).details.rule).toBe("no_email_to_verify")
      const phone = await t.call(customer.id, "verify-phone")
      expect((await phone.json()).details.rule).toBe("no_phone_to_verify")
    })

    it("refuses a wrong code with 400 and the rule, never the right code; five wrong codes void it", async () => {
      const customer = await t.create()
      expect((await t.call(customer.id, "verify-email/confirm", { code: "123456" })).status).toBe(400)
      await t.call(customer.id, "verify-email")
      for (let attempt = 0; attempt < 5; attempt++) {
        const wrong = await t.call(customer.id, "verify-email/confirm", { code: "654321" })
        expect(wrong.status).toBe(400)
        const body = await wrong.json()
        expect(body).toMatchObject({ code: "INVALID_INPUT", details: { rule: "contact_code_mismatch" } })
        expect(JSON.stringify(body)).not.toContain("123456")
      }
      const exhausted = await t.call(customer.id, "verify-email/confirm", { code: "123456" })
      expect(exhausted.status).toBe(400)
      expect((await exhausted.json()).details.rule).toBe("contact_code_attempts_exhausted")
      await t.call(customer.id, "verify-email")
      expect((await t.call(customer.id, "verify-email/confirm", { code: "123456" })).status).toBe(200)
    })

    it("sends at most 3 codes to one contact in 90 seconds, then answers 429 with Retry-After", async () => {
      const customer = await t.create()
      for (let sent = 0; sent < 3; sent++) expect((await t.call(customer.id, "verify-phone")).status).toBe(204)
      const limited = await t.call(customer.id, "verify-phone")
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((await limited.json()).code).toBe("RATE_LIMITED")
      expect((await t.call(customer.id, "verify-email")).status).toBe(204)
      expect((await t.call(customer.id, "verify-phone/confirm", { code: "123456" })).status).toBe(200)
    })

    it("rejects a malformed code as a field error", async () => {
      const customer = await t.create()
      const response = await t.call(customer.id, "verify-email/confirm", { code: "12ab" })
      expect(response.status).toBe(400)
      expect((await response.json()).details.errors[0].field).toBe("code")
    })

    it("makes a changed phone number PENDING again, and a code sent to the old number verifies nothing", async () => {
      const customer = await t.create()
      await t.call(customer.id, "verify-phone")
      await t.call(customer.id, "verify-phone/confirm", { code: "123456" })
      const patch = async (body: Record<string, unknown>) => {
        const response = await t.api.request(`${base}/customers/${customer.id}`, {
          method: "PATCH",
          body: JSON.stringify({ customerType: "INDIVIDUAL", ...body })
        })
        expect(response.status).toBe(200)
        return response.json()
      }
      const renamed = await patch({ fullName: "Marie S. Curie" })
      expect(renamed.contactVerification).toEqual({ email: "PENDING", phone: "VERIFIED" })
      const changed = await patch({ phoneNumber: "+33698765432" })
      expect(changed.contactVerification).toEqual({ email: "PENDING", phone: "PENDING" })
      await t.call(customer.id, "verify-phone")
      await patch({ phoneNumber: "+33687654321" })
      const stale = await t.call(customer.id, "verify-phone/confirm", { code: "123456" })
      expect(stale.status).toBe(400)
      expect((await stale.json()).details.rule).toBe("contact_code_not_requested")
      const moved = await patch({ region: "US" })
      expect(moved).not.toHaveProperty("contactVerification")
    })

    it("expires a code 10 minutes after it was sent", async () => {
      const customer = await t.create()
      await t.call(customer.id, "verify-phone")
      const advance = await t.api.request(`${base}/sandbox/clock/advance`, {
        method: "POST",
        body: JSON.stringify({ seconds: 601 })
      })
      expect(advance.status).toBe(200)
      const late = await t.call(customer.id, "verify-phone/confirm", { code: "123456" })
      expect(late.status).toBe(400)
      expect((await late.json()).details.rule).toBe("contact_code_expired")
    })

    it("verifies once when correct codes race: one 200, the others 400", async () => {
      const customer = await t.create()
      await t.call(customer.id, "verify-email")
      const statuses = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.call(customer.id, "verify-email/confirm", { code: "123456" }).then((response) => response.status)
        )
      )
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status !== 200).every((status) => status === 400 || status === 409)).toBe(true)
      const events = await t.api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
      const verified = events.filter(
        (event) =>
          event.type === "CUSTOMER.UPDATED" &&
          event.data["id"] === customer.id &&
          (event.data["contactVerification"] as { email?: string } | undefined)?.email === "VERIFIED"
      )
      expect(verified).toHaveLength(1)
    })

    it("answers 410 for a deleted customer and 404 for another platform's", async () => {
      const customer = await t.create()
      await t.api.request(`${base}/customers/${customer.id}`, { method: "DELETE" })
      for (const [route, body] of [
        ["verify-email", undefined],
        ["verify-phone/confirm", { code: "123456" }]
      ] as const) {
        const response = await t.call(customer.id, route, body)
        expect(response.status).toBe(410)
        expect((await response.json()).code).toBe("CUSTOMER_DELETED")
      }
      const live = await t.create()
      const other = await t.api.request(`${base}/customers/${live.id}/verify-email`, {
        method: "POST",
        auth: t.api.otherPlatformBasic
      })
      expect(other.status).toBe(404)
    })

    it("needs the MANAGE permission", async () => {
      const customer = await t.create()
      const viewer = await t.api.tokenWith(["VIEW"])
      const response = await t.api.request(`${base}/customers/${customer.id}/verify-email`, {
        method: "POST",
        auth: viewer
      })
      expect(response.status).toBe(403)
    })
  })

  describe.skipIf(!adapter.enabled)(`contact verification on a production platform on ${adapter.name}`, () => {
    let t: Api

    beforeAll(async () => {
      t = await setUp(await makeHarness({ storage: adapter.storage(), environment: "PRODUCTION" }))
    })
    afterAll(() => t.api.dispose())

    it("delivers a random 6-digit code, stores only its digest, and confirms with it", async () => {
      const customer = (await t.create()) as { id: string; email: string }
      expect((await t.call(customer.id, "verify-email")).status).toBe(204)
      const message = await t.api.run(
        Effect.flatMap(SandboxOtpDelivery.SandboxOtpOutbox, (outbox) =>
          outbox.latest(t.api.platform.id, customer.email)
        )
      )
      expect(Option.isSome(message)).toBe(true)
      const delivered = Option.getOrThrow(message)
      const code = Redacted.value(delivered.code)
      expect(code).toMatch(/^[0-9]{6}$/)
      expect(delivered.channel).toBe("EMAIL")
      const stored = await t.api.run(
        Effect.flatMap(ContactCodeRepo.ContactCodeRepo, (repo) =>
          repo.find(t.api.platform.id, Customer.CustomerId.make(customer.id), "email")
        )
      )
      const record = Option.getOrThrow(stored)
      expect(JSON.stringify(record)).not.toContain(`"${code}"`)
      expect(record.codeDigest).toMatch(/^[0-9a-f]{64}$/)
      if (code !== "123456") {
        const sandboxCode = await t.call(customer.id, "verify-email/confirm", { code: "123456" })
        expect(sandboxCode.status).toBe(400)
      }
      const confirmed = await t.call(customer.id, "verify-email/confirm", { code })
      expect(confirmed.status).toBe(200)
      expect((await confirmed.json()).contactVerification.email).toBe("VERIFIED")
    })

    it("sends SMS codes to the phone number, a new code replacing the earlier one", async () => {
      const customer = await t.create({ phoneNumber: "+33611112222" })
      const latest = () =>
        t.api.run(
          Effect.flatMap(SandboxOtpDelivery.SandboxOtpOutbox, (outbox) =>
            outbox.latest(t.api.platform.id, "+33611112222")
          )
        )
      await t.call(customer.id, "verify-phone")
      const first = Option.getOrThrow(await latest())
      expect(first.channel).toBe("SMS")
      await t.call(customer.id, "verify-phone")
      const second = Redacted.value(Option.getOrThrow(await latest()).code)
      const firstCode = Redacted.value(first.code)
      if (firstCode !== second) {
        const old = await t.call(customer.id, "verify-phone/confirm", { code: firstCode })
        expect(old.status).toBe(400)
      }
      expect((await t.call(customer.id, "verify-phone/confirm", { code: second })).status).toBe(200)
    })
  })
}
