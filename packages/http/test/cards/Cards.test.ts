import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adapters } from "../support/Adapters.js"
import { type Harness, makeHarness } from "../support/Harness.js"
import { cardsOf } from "./CardFixtures.js"

/*
 * Card management over HTTP on every storage adapter, every response checked against the OpenAPI document: each
 * endpoint's success and refusals, and the reveal page (single use, one refusal page, its headers). No API response
 * carries the full number or the CVC.
 */
for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`cards over HTTP on ${adapter.name}`, () => {
    let api: Harness
    let viewer: string
    beforeAll(async () => {
      api = await makeHarness({ storage: adapter.storage() })
      viewer = await api.tokenWith(["VIEW"])
    }, 60_000)
    afterAll(() => api.dispose())
    const t = () => cardsOf(api)

    // Every API body this suite receives, to look for card numbers in at the end.
    const bodies: Array<string> = []
    const send = async (method: string, path: string, body?: unknown, auth?: string | null) => {
      const response = await api.request(`/2025-10-13${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(auth === undefined ? {} : { auth })
      })
      const text = await response.text()
      bodies.push(text)
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
    }
    const page = async (panEmbedUrl: string) => {
      const response = await api.request(new URL(panEmbedUrl).pathname)
      return { status: response.status, headers: response.headers, text: await response.text() }
    }
    const newCard = async (extra: Record<string, unknown> = {}, platformCustomerId?: string) => {
      const holder = await t().cardholder(platformCustomerId === undefined ? {} : { platformCustomerId })
      const created = await send("POST", "/cards", {
        customerId: holder.id,
        form: "VIRTUAL",
        fundingSource: holder.accounts["USD"],
        ...extra
      })
      expect(created.status).toBe(201)
      return { holder, card: created.body }
    }
    const activeCard = async (extra: Record<string, unknown> = {}) => {
      const made = await newCard(extra)
      expect(await t().provision(made.card.id)).toBe(1)
      return made
    }

    it("POST /cards issues a PROCESSING card (201) in both names; then it is ACTIVE", async () => {
      const { holder, card } = await newCard({ maxSpendPerTransaction: 10_000 })
      const usd = holder.accounts["USD"]
      expect(card).toMatchObject({
        customerId: holder.id,
        cardholderId: holder.id,
        platformCustomerId: holder.platformCustomerId,
        status: "PROCESSING",
        state: "PROCESSING",
        stateReason: null,
        brand: "VISA",
        form: "VIRTUAL",
        fundingSource: usd,
        fundingSources: [usd],
        currency: "USD",
        maxSpendPerTransaction: 10_000
      })
      expect(card.id).toMatch(/^Card:[0-9a-f-]{36}$/)
      expect(card.last4).toMatch(/^[0-9]{4}$/)
      expect(await t().provision(card.id)).toBe(1)
      expect((await send("GET", `/cards/${card.id}`)).body).toMatchObject({ status: "ACTIVE", state: "ACTIVE" })
      // The reference's threeDSecurePassword is accepted, never stored nor echoed.
      const aliased = await send("POST", "/cards", {
        cardholderId: holder.id,
        form: "VIRTUAL",
        fundingSources: [usd],
        threeDSecurePassword: "s3cret-3ds"
      })
      expect(aliased.status).toBe(201)
      expect(aliased.body.maxSpendPerTransaction).toBeNull()
      expect(JSON.stringify(aliased.body)).not.toContain("s3cret-3ds")
    })

    it("POST and PATCH /cards refuse a field they do not know, so a misspelt limit issues no unlimited card", async () => {
      const holder = await t().cardholder()
      const usd = holder.accounts["USD"]
      const misspelt = await send("POST", "/cards", {
        customerId: holder.id,
        fundingSource: usd,
        form: "VIRTUAL",
        maxSpendPerTransacton: 5_000
      })
      expect(misspelt).toMatchObject({
        status: 400,
        body: {
          code: "INVALID_INPUT",
          details: { errors: [expect.objectContaining({ field: "maxSpendPerTransacton" })] }
        }
      })
      const listed = await send("GET", `/cards?customerId=${encodeURIComponent(holder.id)}`)
      expect(listed.body.data).toEqual([])
      const { card } = await newCard({ maxSpendPerTransaction: 10_000 })
      const patched = await send("PATCH", `/cards/${card.id}`, { maxSpendPerTransacton: null })
      expect(patched).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      expect((await send("GET", `/cards/${card.id}`)).body.maxSpendPerTransaction).toBe(10_000)
    })

    it("POST /cards refuses: 400 invalid, KYC not approved, ineligible funding; 404 customer; 401; 403", async () => {
      const holder = await t().cardholder()
      const usd = holder.accounts["USD"]
      const invalid = await send("POST", "/cards", { customerId: holder.id, fundingSource: usd, form: "PHYSICAL" })
      expect(invalid).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      const limit = await send("POST", "/cards", {
        customerId: holder.id,
        fundingSource: usd,
        form: "VIRTUAL",
        maxSpendPerTransaction: 0
      })
      expect(limit).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      const pending = await t().cardholder({ status: "PENDING" })
      expect(
        await send("POST", "/cards", {
          customerId: pending.id,
          fundingSource: pending.accounts["USD"],
          form: "VIRTUAL"
        })
      ).toMatchObject({ status: 400, body: { code: "CARDHOLDER_KYC_NOT_APPROVED", details: { kycStatus: "PENDING" } } })
      const frozen = await t().storeAccount(holder.id, { status: "FROZEN" })
      expect(
        await send("POST", "/cards", { customerId: holder.id, fundingSource: frozen, form: "VIRTUAL" })
      ).toMatchObject({
        status: 400,
        body: { code: "FUNDING_SOURCE_INELIGIBLE", details: { rule: "not_active" } }
      })
      const body = { customerId: `Customer:${globalThis.crypto.randomUUID()}`, fundingSource: usd, form: "VIRTUAL" }
      expect(await send("POST", "/cards", body)).toMatchObject({ status: 404 })
      const valid = { customerId: holder.id, fundingSource: usd, form: "VIRTUAL" }
      expect((await send("POST", "/cards", valid, null)).status).toBe(401)
      expect(await send("POST", "/cards", valid, viewer)).toMatchObject({ status: 403 })
      // Another platform's customer is not found.
      expect((await send("POST", "/cards", valid, api.otherPlatformBasic)).status).toBe(404)
    })

    it("GET /cards filters by customer (both names), account, status (both names), platformCardId; pages both ways", async () => {
      const { holder, card: first } = await activeCard()
      const second = (
        await send("POST", "/cards", { customerId: holder.id, form: "VIRTUAL", fundingSource: holder.accounts["USD"] })
      ).body
      const third = (
        await send("POST", "/cards", { customerId: holder.id, form: "VIRTUAL", fundingSource: holder.accounts["USD"] })
      ).body
      const ids = (answer: { body: { data: ReadonlyArray<{ id: string }> } }) => answer.body.data.map((c) => c.id)
      const byCustomer = await send("GET", `/cards?customerId=${holder.id}`)
      expect(byCustomer.status).toBe(200)
      expect(ids(byCustomer)).toEqual([third.id, second.id, first.id])
      expect(ids(await send("GET", `/cards?cardholderId=${holder.id}&sortOrder=asc`))).toEqual([
        first.id,
        second.id,
        third.id
      ])
      expect(ids(await send("GET", `/cards?accountId=${holder.accounts["USD"]}&status=ACTIVE`))).toEqual([first.id])
      expect(ids(await send("GET", `/cards?customerId=${holder.id}&state=PROCESSING`))).toEqual([third.id, second.id])
      expect(ids(await send("GET", `/cards?platformCardId=${second.platformCardId}`))).toEqual([second.id])
      const firstPage = await send("GET", `/cards?customerId=${holder.id}&limit=2`)
      expect(firstPage.body).toMatchObject({ hasMore: true })
      const rest = await send("GET", `/cards?customerId=${holder.id}&limit=2&cursor=${firstPage.body.nextCursor}`)
      expect([...ids(firstPage), ...ids(rest)]).toEqual([third.id, second.id, first.id])
      expect(rest.body.hasMore).toBe(false)
      const other = await t().cardholder()
      expect(await send("GET", `/cards?customerId=${holder.id}&cardholderId=${other.id}`)).toMatchObject({
        status: 400,
        body: { code: "INVALID_INPUT" }
      })
      for (const query of ["customerId=nope", "status=LOST", "sortOrder=up", "limit=0", "accountId=Card:1"]) {
        expect(await send("GET", `/cards?${query}`)).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      }
      expect((await send("GET", `/cards?customerId=${holder.id}`, undefined, viewer)).status).toBe(200)
      expect(
        (await send("GET", `/cards?customerId=${holder.id}`, undefined, api.otherPlatformBasic)).body.data
      ).toEqual([])
      expect((await send("GET", "/cards", undefined, null)).status).toBe(401)
    })

    it("GET /cards/{id}: 200 to a viewer, 404 unknown or another platform's, 400 malformed, 401", async () => {
      const { card } = await newCard()
      expect(await send("GET", `/cards/${card.id}`, undefined, viewer)).toMatchObject({
        status: 200,
        body: { id: card.id }
      })
      expect(await send("GET", `/cards/Card:${globalThis.crypto.randomUUID()}`)).toMatchObject({
        status: 404,
        body: { code: "NOT_FOUND" }
      })
      expect((await send("GET", `/cards/${card.id}`, undefined, api.otherPlatformBasic)).status).toBe(404)
      expect(await send("GET", "/cards/not-a-card")).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      expect((await send("GET", `/cards/${card.id}`, undefined, null)).status).toBe(401)
    })

    it("PATCH /cards/{id}: freeze, unfreeze, limit, funding source, close; 409s, 400, 403, 404", async () => {
      const processing = await newCard({}, `pc-${globalThis.crypto.randomUUID()}-001`)
      expect(await send("PATCH", `/cards/${processing.card.id}`, { status: "FROZEN" })).toMatchObject({
        status: 409,
        body: { code: "CARD_NOT_MUTABLE" }
      })
      const { holder, card } = await activeCard()
      const path = `/cards/${card.id}`
      expect(await send("PATCH", path, { state: "FROZEN" })).toMatchObject({
        status: 200,
        body: { status: "FROZEN", state: "FROZEN" }
      })
      expect(await send("PATCH", path, { status: "ACTIVE", maxSpendPerTransaction: 700 })).toMatchObject({
        status: 200,
        body: { status: "ACTIVE", maxSpendPerTransaction: 700 }
      })
      expect((await send("PATCH", path, { maxSpendPerTransaction: null })).body.maxSpendPerTransaction).toBeNull()
      const second = await t().storeAccount(holder.id)
      expect((await send("PATCH", path, { fundingSources: [second] })).body).toMatchObject({
        fundingSource: second,
        fundingSources: [second]
      })
      const euros = await t().storeAccount(holder.id, { currency: "EUR" })
      expect(await send("PATCH", path, { fundingSource: euros })).toMatchObject({
        status: 400,
        body: { code: "FUNDING_SOURCE_INELIGIBLE" }
      })
      for (const body of [{}, { status: "PROCESSING" }, { status: "CLOSED", maxSpendPerTransaction: 1 }]) {
        expect(await send("PATCH", path, body)).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } })
      }
      expect((await send("PATCH", path, { status: "FROZEN" }, viewer)).status).toBe(403)
      expect((await send("PATCH", path, { status: "FROZEN" }, api.otherPlatformBasic)).status).toBe(404)
      const closed = await send("PATCH", path, { status: "CLOSED" })
      expect(closed).toMatchObject({
        status: 200,
        body: { status: "CLOSED", stateReason: "CLOSED_BY_PLATFORM", fundingSources: [] }
      })
      expect(closed.body.fundingSource).toBeUndefined()
      expect(await send("PATCH", path, { status: "ACTIVE" })).toMatchObject({
        status: 409,
        body: { code: "CARD_ALREADY_CLOSED" }
      })
    })

    it("reveals once: the page shows the grouped number, expiry and CVC, then 410 as for an unknown link", async () => {
      const { card } = await activeCard()
      expect((await send("POST", `/cards/${card.id}/reveal`, undefined, viewer)).status).toBe(403)
      const reveal = await send("POST", `/cards/${card.id}/reveal`)
      expect(reveal.status).toBe(200)
      expect(Object.keys(reveal.body).sort()).toEqual(["expiresAt", "panEmbedUrl"])
      expect(reveal.body.panEmbedUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/cards\/reveal\/[A-Za-z0-9_-]{43}$/)
      expect(Date.parse(reveal.body.expiresAt) - Date.now()).toBeGreaterThan(290_000)
      expect(Date.parse(reveal.body.expiresAt) - Date.now()).toBeLessThanOrEqual(300_000)

      // A HEAD (a link checker, a prefetch) spends nothing.
      const head = await api.request(new URL(reveal.body.panEmbedUrl).pathname, { method: "HEAD" })
      expect(head.status).toBe(405)
      expect(head.headers.get("allow")).toBe("GET")
      const first = await page(reveal.body.panEmbedUrl)
      expect(first.status).toBe(200)
      expect(first.headers.get("content-type")).toMatch(/^text\/html/)
      expect(first.headers.get("cache-control")).toBe("no-store")
      expect(first.headers.get("referrer-policy")).toBe("no-referrer")
      expect(first.headers.get("x-content-type-options")).toBe("nosniff")
      expect(first.headers.get("x-frame-options")).toBeNull()
      const csp = first.headers.get("content-security-policy") ?? ""
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("style-src 'unsafe-inline'")
      expect(csp).toContain("frame-ancestors *")
      const pan = /4000 00[0-9]{2} [0-9]{4} [0-9]{4}/.exec(first.text)?.[0]
      expect(pan).toBeDefined()
      expect(pan?.endsWith(card.last4)).toBe(true)
      expect(first.text).toMatch(/<dt>Expiry<\/dt><dd[^>]*>[0-9]{2}\/[0-9]{2}<\/dd>/)
      const cvc = /<dt>CVC<\/dt><dd[^>]*>([0-9]{3})<\/dd>/.exec(first.text)?.[1]
      expect(cvc).toBeDefined()
      expect(first.text).not.toMatch(/<script|<link rel="stylesheet"|src="http/)

      const second = await page(reveal.body.panEmbedUrl)
      const unknown = await page("http://127.0.0.1:8080/cards/reveal/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
      expect(second.status).toBe(410)
      expect(unknown.status).toBe(410)
      expect(unknown.text).toBe(second.text)
      expect(second.text).not.toContain(card.last4)
      expect(second.headers.get("cache-control")).toBe("no-store")
      expect((await api.request(new URL(reveal.body.panEmbedUrl).pathname, { method: "POST" })).status).not.toBe(200)

      // Nothing the API answered in this suite holds the number, grouped or not, or a `cvc` field.
      await send("GET", `/cards/${card.id}`)
      await send("GET", `/cards?customerId=${card.customerId}`)
      const digits = pan!.replaceAll(" ", "")
      for (const body of bodies) {
        expect(body).not.toContain(digits)
        expect(body).not.toContain(pan)
        expect(body.toLowerCase()).not.toMatch(/"(cvc|cvv|pan|number)"/)
      }
    })

    it("POST /cards/{id}/reveal: 404 unknown, 409 closed", async () => {
      expect(await send("POST", `/cards/Card:${globalThis.crypto.randomUUID()}/reveal`)).toMatchObject({
        status: 404,
        body: { code: "NOT_FOUND" }
      })
      const { card } = await activeCard()
      expect((await send("PATCH", `/cards/${card.id}`, { status: "CLOSED" })).status).toBe(200)
      expect(await send("POST", `/cards/${card.id}/reveal`)).toMatchObject({
        status: 409,
        body: { code: "CARD_ALREADY_CLOSED" }
      })
    })
  })
}
