import { mkdirSync } from "node:fs"
import type { Server } from "node:http"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as BrowserSupport from "../support/Browser.js"
import { makeHarness, type Harness } from "../support/Harness.js"

const { skip, title } = BrowserSupport.suite("hosted verification page in headless Chromium")

const base = "/2025-10-13"
const artifacts = fileURLToPath(new URL("./test-results/", import.meta.url))

// A small, well-formed PDF (one blank page), as a person would upload a scan.
const pdf = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)

/** A real socket in front of the harness; `/done` stands in for the platform's redirect page. */
const serve = (harness: Harness) =>
  BrowserSupport.bridge(harness, {
    intercept: (url, response) => {
      if (!url.startsWith("/done")) return false
      response
        .writeHead(200, { "content-type": "text/html" })
        .end('<!doctype html><link rel="icon" href="data:,"><title>Done</title><h1>Done</h1>')
      return true
    },
    init: { redirect: "manual" }
  })

describe.skipIf(skip)(title, () => {
  let browser: Browser
  let harness: Harness
  let server: Server
  let origin: string
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    browser = await BrowserSupport.launch()
    harness = await makeHarness()
    ;({ origin, server } = await serve(harness))
  })
  afterAll(async () => {
    await browser?.close()
    server?.close()
    await harness?.dispose()
  })

  const shot = (page: Page, name: string) => page.screenshot({ path: `${artifacts}${name}.png`, fullPage: true })
  const within = (page: Page, form: string) => page.locator(`form[action$="/${form}"]`)

  const upload = async (page: Page, holder: string, documentType: string, name: string) => {
    const form = within(page, "documents")
    await form.getByLabel("Whose document").selectOption({ label: holder })
    await form.getByLabel("Type of document").selectOption(documentType)
    await form.getByLabel("Issuing country").fill("US")
    await form.getByLabel("File (PDF, JPEG or PNG)").setInputFiles({ name, mimeType: "application/pdf", buffer: pdf })
    await form.getByRole("button", { name: "Upload" }).click()
    await page.waitForLoadState("load")
    await page.getByText(name).waitFor()
  }

  const addPerson = async (page: Page, first: string, last: string, roles: ReadonlyArray<string>, share: string) => {
    const form = within(page, "owners")
    for (const role of roles) await form.locator(`input[name="roles"][value="${role}"]`).check()
    await form.getByLabel("Ownership (percent)").fill(share)
    await form.getByLabel("First name").fill(first)
    await form.getByLabel("Last name").fill(last)
    await form.getByLabel("Date of birth").fill("1980-05-17")
    await form.getByLabel("Nationality").fill("US")
    await form.getByLabel("Tax id (###-##-####)").fill("123-45-6789")
    await form.getByLabel("Street and number").fill("5 Market St")
    await form.getByLabel("Postal code").fill("94105")
    await form.getByLabel("Country (2-letter code, e.g. US)").fill("US")
    await form.getByRole("button", { name: "Add person" }).click()
    await page.waitForLoadState("load")
  }

  it("a person completes a 003 business's packet, submits, lands on the redirect, and the business awaits review", async () => {
    const created = await harness.request(`${base}/customers`, {
      method: "POST",
      body: JSON.stringify({ customerType: "BUSINESS", businessInfo: { legalName: "Rivet Works LLC" } })
    })
    const customer = (await created.json()) as { readonly id: string }
    const linked = await harness.request(`${base}/customers/${customer.id}/kyc-link`, {
      method: "POST",
      body: JSON.stringify({ redirectUri: `${origin}/done?customer=1` })
    })
    const { kycUrl } = await linked.json()
    const page = await browser.newPage()
    const problems: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`)
    })
    try {
      const opened = await page.goto(`${origin}${new URL(kycUrl).pathname}`)
      expect(opened?.status()).toBe(200)
      await page.getByText("MISSING_LEGAL_PRESENCE_DOCUMENT").first().waitFor()
      await shot(page, "1-missing")

      const fields = within(page, "fields")
      await fields.getByLabel("Registration number").fill("RW-2020-003")
      await fields.getByLabel("Tax id").fill("12-3456789")
      await fields.getByLabel("Country of incorporation").fill("US")
      await fields.getByLabel("Incorporated on").fill("2020-03-01")
      await fields.getByLabel("Entity type").fill("LLC")
      await fields.getByLabel("Street and number").fill("1 Mill Road")
      await fields.getByLabel("Postal code").fill("94105")
      await fields.getByLabel("Country (2-letter code, e.g. US)").fill("US")
      await fields.getByRole("button", { name: "Save details" }).click()
      await page.waitForLoadState("load")
      await shot(page, "2-details-saved")

      await upload(page, "The business (Rivet Works LLC)", "CERTIFICATE_OF_INCORPORATION", "certificate.pdf")
      await shot(page, "3-legal-presence-uploaded")

      await addPerson(page, "Grace", "Hopper", ["UBO"], "75")
      await addPerson(page, "Alan", "Turing", ["CONTROL_PERSON"], "0")
      await shot(page, "4-people-added")
      expect(await page.getByText("123-45-6789").count()).toBe(0)

      await upload(page, "Grace Hopper", "PASSPORT", "grace-passport.pdf")
      await upload(page, "Alan Turing", "PASSPORT", "alan-passport.pdf")
      await page.getByText("Nothing is missing").waitFor()
      await shot(page, "5-complete")

      await within(page, "submit").getByRole("button", { name: "Submit for verification" }).click()
      await page.waitForURL(`${origin}/done?customer=1`)
      await shot(page, "6-redirected")
      expect(problems).toEqual([])

      const after = await (await harness.request(`${base}/customers/${customer.id}`)).json()
      expect(after.kybStatus).toBe("PENDING")
      const listed = await (await harness.request(`${base}/verifications?customerId=${customer.id}`)).json()
      expect(listed.data[0].verificationStatus).toBe("PENDING_MANUAL_REVIEW")

      const reopened = await page.goto(`${origin}${new URL(kycUrl).pathname}`)
      expect(reopened?.status()).toBe(410)
      await shot(page, "7-link-spent")
    } finally {
      await page.close()
    }
  }, 120_000)
})
