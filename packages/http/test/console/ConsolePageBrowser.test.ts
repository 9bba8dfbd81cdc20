import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as BrowserSupport from "../support/Browser.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const { skip, title } = BrowserSupport.suite("sandbox console in headless Chromium, mounted under a prefix")

/** The harness's token as the user name and password a person types into the browser's sign-in prompt. */
const credentialsOf = (basic: string) => {
  const [username, password] = atob(basic.slice("Basic ".length)).split(":") as [string, string]
  return { username, password }
}

describe.skipIf(skip)(title, () => {
  let browser: Browser
  let harness: Harness
  beforeAll(async () => {
    browser = await BrowserSupport.launch()
    harness = await makeHarness({ prefix: "/payments" })
  })
  afterAll(async () => {
    await browser?.close()
    await harness?.dispose()
  })

  it("calls the API under the prefix it is mounted at, pages through a list, and is driven by keyboard alone", async () => {
    const created = await harness.request("/payments/2025-10-13/customers", {
      method: "POST",
      body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId: "keyboard-1", fullName: "Kai Keys" })
    })
    expect(created.status).toBe(201)
    // Fifty newer customers fill the first page (50 rows): Kai is on the second.
    for (let index = 0; index < 50; index++) {
      const newer = await harness.request("/payments/2025-10-13/customers", {
        method: "POST",
        body: JSON.stringify({
          customerType: "INDIVIDUAL",
          platformCustomerId: `newer-${index}`,
          fullName: "Nia Newer"
        })
      })
      expect(newer.status).toBe(201)
    }
    const { origin, server } = await BrowserSupport.bridge(harness)
    const context = await browser.newContext({ httpCredentials: credentialsOf(harness.basic) })
    const page = await context.newPage()
    const problems: Array<string> = []
    const requested: Array<URL> = []
    page.on("pageerror", (error) => problems.push(error.message))
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text())
    })
    page.on("request", (request) => requested.push(new URL(request.url())))
    try {
      expect((await page.goto(`${origin}/payments/console`))?.status()).toBe(200)
      const main = page.getByRole("main")
      await main
        .getByRole("row", { name: /Nia Newer/ })
        .first()
        .waitFor()
      expect(await main.getByRole("row", { name: /Kai Keys/ }).count()).toBe(0)
      await main.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Older" }).click()
      await main.getByRole("row", { name: /Kai Keys/ }).waitFor()
      await main.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Newest" }).click()
      await main.getByRole("row", { name: /Kai Keys/ }).waitFor({ state: "detached" })
      // Everything the page loads and calls is on its own origin, under the prefix.
      expect(requested.map((url) => url.pathname)).toContain("/payments/2025-10-13/customers")
      expect(requested.filter((url) => url.origin !== origin || !url.pathname.startsWith("/payments/"))).toEqual([])

      // From a freshly loaded page, the first Tab lands on the skip link, which moves focus to the view.
      await page.reload()
      await main
        .getByRole("row", { name: /Nia Newer/ })
        .first()
        .waitFor()
      await page.keyboard.press("Tab")
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content")
      const hash = await page.evaluate(() => location.hash)
      await page.keyboard.press("Enter")
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("view")
      // Without navigating: the view shown stays (a later render would take the focus back).
      expect(await page.evaluate(() => location.hash)).toBe(hash)

      // Tabbing through the navigation to "Sandbox clock" and pressing Enter opens it and focuses the view.
      await page.getByRole("link", { name: "Simulators" }).focus()
      await page.keyboard.press("Shift+Tab")
      await page.keyboard.press("Enter")
      await main.getByRole("heading", { name: "Sandbox clock" }).waitFor()
      expect(await page.getByRole("link", { name: "Sandbox clock" }).getAttribute("aria-current")).toBe("page")
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("view")

      // The advance form is filled and submitted from the keyboard.
      await page.keyboard.press("Tab")
      expect(await page.evaluate(() => document.activeElement?.getAttribute("id"))).toBe("advance-seconds")
      await page.keyboard.press("Control+A")
      await page.keyboard.type("120")
      await page.keyboard.press("Enter")
      await page.getByRole("status").filter({ hasText: "Clock advanced by 120 seconds" }).waitFor()
      const clock = await harness.request("/payments/2025-10-13/sandbox/clock")
      expect(((await clock.json()) as { offsetSeconds: number }).offsetSeconds).toBe(120)
      expect(problems).toEqual([])
    } finally {
      await context.close()
      server.close()
    }
  }, 120_000)
})
