import { Effect } from "effect"
import { Outbox } from "@payrail/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`DELETE /customers/{id} on ${adapter.name}`, () => {
    let api: Harness

    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
    })
    afterAll(() => api.dispose())

    const create = async (overrides: Record<string, unknown> = {}) => {
      const response = await api.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify({
          customerType: "INDIVIDUAL",
          platformCustomerId: `user-${crypto.randomUUID()}`,
          fullName: "Ada Lovelace",
          region: "US",
          ...overrides
        })
      })
      expect(response.status).toBe(201)
      return (await response.json()) as { id: string; platformCustomerId: string }
    }
    const remove = (id: string, auth?: string) =>
      api.request(`${base}/customers/${id}`, { method: "DELETE", ...(auth ? { auth } : {}) })

    it("answers 200 with the customer now deleted, then 410 CUSTOMER_DELETED", async () => {
      const customer = await create()
      const first = await remove(customer.id)
      expect(first.status).toBe(200)
      expect(await first.json()).toMatchObject({ id: customer.id, isDeleted: true })
      const again = await remove(customer.id)
      expect(again.status).toBe(410)
      expect(await again.json()).toMatchObject({ code: "CUSTOMER_DELETED", details: { customerId: customer.id } })
    })

    it("records CUSTOMER.UPDATED with the deleted customer (the reference has no CUSTOMER.DELETED)", async () => {
      const customer = await create()
      await remove(customer.id)
      await remove(customer.id)
      const events = await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
      const mine = events.filter((event) => event.data["id"] === customer.id)
      expect(mine.map((event) => [event.type, event.data["isDeleted"]])).toEqual([
        ["CUSTOMER.CREATED", false],
        ["CUSTOMER.KYC_APPROVED", false],
        ["CUSTOMER.UPDATED", true]
      ])
    })

    it("still answers GET, refuses PATCH with 410, and is listed only with isIncludingDeleted=true", async () => {
      const customer = await create()
      await remove(customer.id)
      const read = await api.request(`${base}/customers/${customer.id}`)
      expect(read.status).toBe(200)
      expect(await read.json()).toMatchObject({ isDeleted: true })
      const patch = await api.request(`${base}/customers/${customer.id}`, {
        method: "PATCH",
        body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Renamed" })
      })
      expect(patch.status).toBe(410)
      expect((await patch.json()).code).toBe("CUSTOMER_DELETED")
      const query = `platformCustomerId=${customer.platformCustomerId}`
      const hidden = await (await api.request(`${base}/customers?${query}`)).json()
      expect(hidden).toMatchObject({ data: [], totalCount: 0 })
      const shown = await (await api.request(`${base}/customers?${query}&isIncludingDeleted=true`)).json()
      expect(shown.data.map((each: { id: string }) => each.id)).toEqual([customer.id])
      expect(shown.totalCount).toBe(1)
    })

    it("leaves deleted customers out of the unfiltered total", async () => {
      const before = (await (await api.request(`${base}/customers?limit=1`)).json()).totalCount as number
      const customer = await create()
      await remove(customer.id)
      const after = await (await api.request(`${base}/customers?limit=1`)).json()
      expect(after.totalCount).toBe(before)
      const all = await (await api.request(`${base}/customers?limit=1&isIncludingDeleted=true`)).json()
      expect(all.totalCount).toBeGreaterThan(before)
    })

    it("frees the platformCustomerId for a new customer", async () => {
      const customer = await create()
      const taken = await api.request(`${base}/customers`, {
        method: "POST",
        body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId: customer.platformCustomerId })
      })
      expect(taken.status).toBe(409)
      await remove(customer.id)
      const reused = await create({ platformCustomerId: customer.platformCustomerId })
      expect(reused.id).not.toBe(customer.id)
    })

    it("answers 404 for an unknown customer and for another platform's, and 400 for a malformed id", async () => {
      const customer = await create()
      expect((await remove(`Customer:${crypto.randomUUID()}`)).status).toBe(404)
      expect((await remove(customer.id, api.otherPlatformBasic)).status).toBe(404)
      expect((await remove("not-an-id")).status).toBe(400)
      expect((await api.request(`${base}/customers/${customer.id}`)).status).toBe(200)
    })

    it("needs the MANAGE permission", async () => {
      const customer = await create()
      const viewer = await api.tokenWith(["VIEW"])
      expect((await remove(customer.id, viewer)).status).toBe(403)
    })

    it("lets exactly one of concurrent deletes succeed; the others answer 410", async () => {
      const customer = await create()
      const statuses = await Promise.all(Array.from({ length: 6 }, () => remove(customer.id).then((r) => r.status)))
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 410)).toHaveLength(5)
    })

    it("replays an Idempotency-Key with the first answer", async () => {
      const customer = await create()
      const key = { "Idempotency-Key": crypto.randomUUID() }
      const first = await api.request(`${base}/customers/${customer.id}`, { method: "DELETE", headers: key })
      const replay = await api.request(`${base}/customers/${customer.id}`, { method: "DELETE", headers: key })
      expect([first.status, replay.status]).toEqual([200, 200])
      expect(await replay.json()).toEqual(await first.json())
    })
    it("freezes a deleted business's packet: verification, documents and owners answer 410 CUSTOMER_DELETED", async () => {
      const send = (method: string, path: string, body: unknown) =>
        api.request(`${base}${path}`, { method, body: JSON.stringify(body) })
      const business = (await (
        await send("POST", "/customers", {
          customerType: "BUSINESS",
          platformCustomerId: `business-${crypto.randomUUID()}`,
          businessInfo: { legalName: "Acme Ltd", registrationNumber: "REG-777", country: "GB" }
        })
      ).json()) as { id: string }
      const ownerOf = (ownershipPercentage: number) => ({
        customerId: business.id,
        roles: ["UBO"],
        ownershipPercentage,
        personalInfo: {
          firstName: "Jane",
          lastName: "Smith",
          birthDate: "1978-06-15",
          nationality: "US",
          address: { line1: "1 Main St", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" },
          idType: "SSN",
          identifier: "123-45-6789"
        }
      })
      const created = await send("POST", "/beneficial-owners", ownerOf(60))
      expect(created.status).toBe(201)
      const owner = (await created.json()) as { id: string }
      expect((await remove(business.id)).status).toBe(200)

      const passport = (holder: string) => {
        const form = new FormData()
        for (const [key, value] of Object.entries({
          documentHolder: holder,
          documentType: "PASSPORT",
          country: "GB"
        })) {
          form.set(key, value)
        }
        form.set("file", new Blob([Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xd9])]), "passport.jpg")
        return form
      }
      const refusals = [
        await send("POST", "/verifications", { customerId: business.id }),
        await send("POST", "/beneficial-owners", ownerOf(10)),
        await send("PATCH", `/beneficial-owners/${owner.id}`, { ownershipPercentage: 70 }),
        await api.request(`${base}/documents`, { method: "POST", body: passport(business.id) }),
        await api.request(`${base}/documents`, { method: "POST", body: passport(owner.id) })
      ]
      for (const refusal of refusals) {
        expect(refusal.status).toBe(410)
        expect(await refusal.json()).toMatchObject({ code: "CUSTOMER_DELETED", details: { customerId: business.id } })
      }
      // Reads still answer: the owner is kept as it was.
      const kept = await api.request(`${base}/beneficial-owners/${owner.id}`)
      expect(await kept.json()).toMatchObject({ id: owner.id, ownershipPercentage: 60 })
    })
  })
}
