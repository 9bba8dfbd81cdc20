import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DomainEvent, Outbox, Platform, PlatformId, Platforms, WebhookDeliveries, WebhookDispatch } from "@payrail/core"
import { ConsolePage } from "@payrail/http"
import { makeHarness, type Harness } from "../support/Harness.js"
import { base, describeOverHttp } from "../support/OverHttp.js"

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  webhookEndpoint: "https://receiver.example/hooks"
})

/** Every URL-like reference in a text: absolute URLs and protocol-relative ones. */
const externalReferences = (text: string) =>
  text.match(/(?:https?:)?\/\/[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s"'<>)]*/g) ?? []

describe("the sandbox console over HTTP", () => {
  let api: Harness
  beforeAll(async () => {
    api = await makeHarness({ config })
  })
  afterAll(() => api?.dispose())

  const get = (path: string, auth?: string | null) => api.request(path, auth === undefined ? {} : { auth })

  it("challenges a request without credentials, or with wrong ones, with 401 and the API's Basic realm", async () => {
    for (const auth of [null, "Basic " + btoa("nobody:wrong"), "Bearer token"]) {
      const response = await get("/console", auth)
      expect(response.status).toBe(401)
      expect(response.headers.get("www-authenticate")).toBe(ConsolePage.challenge)
      expect(response.headers.get("content-security-policy")).toBe(ConsolePage.headers["content-security-policy"])
      const page = await response.text()
      expect(page).toContain("Sign in to the console")
      expect(page).not.toContain("Test platform")
    }
    const events = await get("/console/events", null)
    expect(events.status).toBe(401)
    expect(await events.json()).toMatchObject({ code: "UNAUTHORIZED" })
  })

  it("serves the page to the platform's token under a strict policy, with nothing from another origin", async () => {
    const response = await get("/console")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    const page = await response.text()
    expect(page).toContain("Test platform")
    expect(page).toContain('<script src="console/app.js" defer></script>')
    expect(page).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/i)
    expect(externalReferences(page)).toEqual([])

    for (const [path, type] of [
      [ConsolePage.scriptPath, /^text\/javascript/],
      [ConsolePage.stylesheetPath, /^text\/css/]
    ] as const) {
      const asset = await get(path, null)
      expect(asset.status).toBe(200)
      expect(asset.headers.get("content-type")).toMatch(type)
      expect(asset.headers.get("x-content-type-options")).toBe("nosniff")
      const text = await asset.text()
      expect(externalReferences(text)).toEqual([])
      expect(text).not.toMatch(/@import|url\(|innerHTML|eval\(|new Function/)
    }
  })

  it("refuses a production platform's token (401, so browsers do not keep it) and a token that cannot VIEW (403)", async () => {
    const production = await makeHarness({ environment: "PRODUCTION" })
    try {
      // 401 with the challenge, not 403: a browser keeps Basic credentials that got any other answer.
      const response = await production.request("/console")
      expect(response.status).toBe(401)
      expect(response.headers.get("www-authenticate")).toBe(ConsolePage.challenge)
      const page = await response.text()
      expect(page).toContain("The console serves sandbox platforms only")
      expect(page).not.toContain("Test platform")
      const events = await production.request("/console/events")
      expect(events.status).toBe(401)
      expect(await events.json()).toMatchObject({ code: "UNAUTHORIZED" })
    } finally {
      await production.dispose()
    }
    const transactOnly = await get("/console", await api.tokenWith(["TRANSACT"]))
    expect(transactOnly.status).toBe(403)
    expect(await transactOnly.text()).toContain("VIEW permission")
  })
})

// The events come from the outbox of whichever store the API runs on.
describeOverHttp("the sandbox console's event log", { config }, (api) => {
  it("answers the events of the platform's deliveries as their webhooks carry them, and none of another platform", async () => {
    const created = await api.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId: "console-events", fullName: "Ada Events" })
    })
    expect(created.status).toBe(201)
    const customer = (await created.json()) as { id: string }
    await api.run(
      Effect.gen(function* () {
        const dispatch = yield* WebhookDispatch.WebhookDispatch
        for (const event of yield* (yield* Outbox.Outbox).pending(100)) yield* dispatch.attempt(event.id)
      })
    )
    const response = await api.request("/console/events")
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    const { data } = (await response.json()) as {
      data: Array<{ id: string; type: string; timestamp: string; data: Record<string, unknown> }>
    }
    const about = data.filter((event) => event.data["id"] === customer.id)
    expect(about.length).toBeGreaterThan(0)
    expect(about[0]).toMatchObject({
      id: expect.stringMatching(/^Webhook:/),
      type: expect.stringMatching(/^CUSTOMER\./)
    })
    expect(about[0]!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/)

    const theirs = (await (await api.request("/console/events", { auth: api.otherPlatformBasic })).json()) as {
      data: Array<unknown>
    }
    expect(theirs.data).toEqual([])
    // The service itself answers another platform nothing of these events, whatever ids it is asked for.
    const ids = about.map((event) => DomainEvent.EventId.make(event.id))
    const asked = (platformId: PlatformId.PlatformId) =>
      api.run(Effect.flatMap(WebhookDeliveries.WebhookDeliveries, (deliveries) => deliveries.events(platformId, ids)))
    expect((await asked(api.platform.id)).map((event) => event.id)).toEqual(ids)
    expect(await asked(PlatformId.PlatformId.make("Platform:00000000-0000-4000-8000-000000000000"))).toEqual([])
  })
})
