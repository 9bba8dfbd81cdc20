import { mkdirSync } from "node:fs"
import { once } from "node:events"
import { createServer, type Server } from "node:http"
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as BrowserSupport from "../support/Browser.js"
import { makeHarness, type Harness } from "../support/Harness.js"
import { cardsOf } from "./CardFixtures.js"

const { skip, title } = BrowserSupport.suite("card reveal page in headless Chromium, framed by another origin")

const artifacts = fileURLToPath(new URL("./test-results/", import.meta.url))

/** The platform's own page on `localhost` (another origin than the API's 127.0.0.1), framing `src`. */
const embedder = async (src: () => string) => {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(
        `<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Wallet</title></head>` +
          `<body><h1>Your card</h1><iframe title="Card details" src="${src()}" width="460" height="260"></iframe></body></html>`
      )
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return { server, origin: `http://localhost:${address.port}` }
}

describe.skipIf(skip)(title, () => {
  let browser: Browser
  let harness: Harness
  let api: Server
  let apiOrigin: string
  let platform: Server
  let platformOrigin: string
  let frameSrc = "about:blank"
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    browser = await BrowserSupport.launch()
    harness = await makeHarness()
    ;({ server: api, origin: apiOrigin } = await BrowserSupport.bridge(harness))
    ;({ server: platform, origin: platformOrigin } = await embedder(() => frameSrc))
  })
  afterAll(async () => {
    await browser?.close()
    api?.close()
    platform?.close()
    await harness?.dispose()
  })

  it("renders the number inside the platform's iframe once; reloading the frame shows the refusal page", async () => {
    const fixtures = cardsOf(harness)
    const { card } = await fixtures.activeCard()
    const reveal = await fixtures.send("POST", `/cards/${card.id}/reveal`)
    expect(reveal.status).toBe(200)
    frameSrc = `${apiOrigin}${new URL(reveal.body.panEmbedUrl as string).pathname}`
    expect(new URL(frameSrc).origin).not.toBe(platformOrigin)

    const page = await browser.newPage()
    const blocked: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error") blocked.push(message.text())
    })
    await page.goto(`${platformOrigin}/`)
    const frame = page.frameLocator('iframe[title="Card details"]')
    const number = frame.locator("dd.pan")
    await number.waitFor()
    const shown = (await number.textContent()) ?? ""
    expect(shown).toMatch(/^4000 00[0-9]{2} [0-9]{4} [0-9]{4}$/)
    expect(shown.endsWith(card.last4)).toBe(true)
    expect(await frame.getByText("CVC").count()).toBe(1)
    expect(await frame.locator("dd").nth(1).textContent()).toMatch(/^[0-9]{2}\/[0-9]{2}$/)
    expect(await frame.getByRole("heading", { level: 1 }).textContent()).toBe("Visa card details")
    await page.screenshot({ path: `${artifacts}card-reveal-framed.png`, fullPage: true })
    // Framing was allowed: nothing was refused by the page's policy.
    expect(blocked.filter((text) => /frame-ancestors|Refused/i.test(text))).toEqual([])

    const inner = page.frames().find((candidate) => candidate.url() === frameSrc)
    expect(inner).toBeDefined()
    await inner!.evaluate(() => {
      location.reload()
    })
    const heading = frame.getByRole("heading", { name: "This link cannot be opened again" })
    await heading.waitFor()
    expect(await frame.locator("dd.pan").count()).toBe(0)
    await page.screenshot({ path: `${artifacts}card-reveal-reloaded.png`, fullPage: true })
    await page.close()
  })
})
