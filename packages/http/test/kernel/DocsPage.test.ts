import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DocsPage } from "@payrail/http"
import * as BrowserSupport from "../support/Browser.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const { skip, title } = BrowserSupport.suite("API reference page in headless Chromium")

/**
 * A real socket in front of the harness: `mount` is the prefix the browser sees; with `strip`, the prefix is cut
 * before the API sees the request, as Express's `app.use("/payments", …)` does.
 */
const serve = (harness: Harness, mount: string, strip: boolean) =>
  BrowserSupport.bridge(harness, {
    route: (url) => (url.startsWith(`${mount}/`) ? (strip ? url.slice(mount.length) : url) : undefined)
  })

describe("the reference page's server resolution", () => {
  it("inserts the resolving script after the spec's data block and before the renderer", () => {
    const page =
      '<body><script id="api-reference" type="application/json">{"servers":[{"url":"."}]}</script><script>render()</script></body>'
    const rewritten = DocsPage.withServersFromPageUrl(page)
    expect(rewritten.indexOf("new URL(server.url, location.href)")).toBeGreaterThan(rewritten.indexOf('{"servers"'))
    expect(rewritten.indexOf("new URL(server.url, location.href)")).toBeLessThan(rewritten.indexOf("render()"))
    expect(() => DocsPage.withServersFromPageUrl("<body></body>")).toThrow(/api-reference/)
  })
})

describe.skipIf(skip)(title, () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await BrowserSupport.launch()
  })
  afterAll(() => browser?.close())

  for (const strip of [false, true]) {
    const how = strip ? "a framework that strips the prefix (Express)" : "WebHandler's prefix"
    it(`sends "try it" requests under the mount prefix, mounted at /payments by ${how}`, async () => {
      const harness = await makeHarness(strip ? {} : { prefix: "/payments" })
      const { origin, server } = await serve(harness, "/payments", strip)
      const page = await browser.newPage()
      const problems: Array<string> = []
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`)
      })
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
      page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`))
      try {
        const loaded = await page.goto(`${origin}/payments/docs`)
        expect(loaded?.status()).toBe(200)
        const serverUrl = page.getByText(`${origin}/payments`, { exact: true }).first()
        await serverUrl.waitFor({ timeout: 30_000 })

        // "Test Request" on "List customers, newest first", then "Send".
        await page
          .getByRole("button", { name: /Test Request/i })
          .nth(1)
          .click()
        const sent = page.waitForRequest((request) => new URL(request.url()).pathname.endsWith("/2025-10-13/customers"))
        await page.getByRole("button", { name: /^Send/i }).first().click()
        const request = await sent
        expect(new URL(request.url()).pathname).toBe("/payments/2025-10-13/customers")
        // The call carries no credentials, so its answer is a 401 (and a browser login prompt); not awaited here.
        expect(problems.filter((problem) => !/status of 401/.test(problem))).toEqual([])
      } finally {
        await page.close()
        server.close()
        await harness.dispose()
      }
    }, 120_000)
  }
})
