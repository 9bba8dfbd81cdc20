import { existsSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Signer } from "@payrail/signer"
import { start, type WalletWeb } from "../src/server.js"
import { openingBalance } from "../src/WalletRoutes.js"

const executablePath = "/usr/bin/chromium"
const found = existsSync(executablePath)
// Under CI the page must be tested: a missing browser fails there instead of skipping.
const skip = !found && (process.env["CI"] ?? "") === ""
const title = skip
  ? `the wallet page in headless Chromium: SKIPPED, ${executablePath} not found (apt-get install -y chromium)`
  : "the wallet page in headless Chromium with a virtual passkey authenticator"

const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/** Where the screenshot of the finished flow is kept (a test artifact, ignored by git). */
const artifacts = fileURLToPath(new URL("../test-results/", import.meta.url))

describe.skipIf(skip)(title, () => {
  let browser: Browser
  let app: WalletWeb
  let context: BrowserContext
  let page: Page
  const problems: Array<string> = []
  /** Every path the page requested: its own backend's, never Payrail's (the backend holds the credentials). */
  const requested: Array<string> = []

  beforeAll(async () => {
    app = await start({ port: 0 })
    browser = await chromium.launch({ executablePath, args: flags })
    context = await browser.newContext()
    page = await context.newPage()
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
    page.on("request", (request) => requested.push(new URL(request.url()).pathname))
    // The Chrome DevTools Protocol's virtual authenticator answers navigator.credentials like a platform passkey.
    const cdp = await context.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true
      }
    })
    const loaded = await page.goto(`${app.origin}/`)
    expect(loaded?.status()).toBe(200)
  })

  afterAll(async () => {
    if (page !== undefined) {
      await mkdir(artifacts, { recursive: true })
      await page.screenshot({ path: `${artifacts}wallet-web.png`, fullPage: true }).catch(() => undefined)
    }
    await browser?.close()
    await app?.close()
  })

  /** Clicks a step's button and waits for the page to report the step done (or fails with its error text). */
  const step = async (button: string, done: RegExp) => {
    await page.locator(`#${button}`).click()
    const status = page.locator('#status:not([data-state="busy"])')
    await status.waitFor({ timeout: 60_000 })
    expect(await page.locator("#status").getAttribute("data-state"), await status.innerText()).toBe("done")
    expect(await status.innerText()).toMatch(done)
  }

  it("signs up: the backend creates the customer, funds its embedded wallet and shows the balance", async () => {
    await step("signup", /^Signed up\. Wallet InternalAccount:/)
    expect(await page.locator("#balance").innerText()).toBe(`${openingBalance / 1_000_000}.000000 USDC`)
    expect(await page.locator("#register").isEnabled()).toBe(true)
    expect(problems).toEqual([])
  }, 120_000)

  it("registers a passkey, logs in with it and withdraws: the stamped quote executes and the balance falls by its total", async () => {
    await step("register", /^Passkey registered \(AuthMethod:/)
    await step("login", /^Logged in: session Session:/)
    await page.locator("#amount").fill("12.5")
    await step("quote", /^Quote Quote:/)
    const quoteId = await page.locator("#quote-id").innerText()
    const total = Number((await page.locator("#quote-total").innerText()).replace(/ USDC$/, "")) * 1_000_000
    expect(total).toBe(12_500_000)
    // Without the page's session key nobody can execute it, the backend included: a stamp by another key is refused.
    const quoted = (await app.payrail.call("GET", `/quotes/${quoteId}`)).body as {
      readonly paymentInstructions: ReadonlyArray<{ readonly accountOrWalletInfo: { readonly payloadToSign: string } }>
    }
    const payloadToSign = quoted.paymentInstructions[0]?.accountOrWalletInfo.payloadToSign ?? ""
    const forged = Signer.stamp({ payloadToSign, privateKey: Signer.generateKeyPair().privateKey })
    const refused = await app.payrail.call("POST", `/quotes/${quoteId}/execute`, undefined, {
      "service-wallet-signature": forged
    })
    expect(refused).toMatchObject({ status: 401, body: { code: "WALLET_SIGNATURE_INVALID" } })

    await step("confirm", /^Withdrawal COMPLETED\.$/)
    expect(await page.locator("#transaction-status").innerText()).toBe("COMPLETED")

    // What the page shows is what Payrail holds.
    const quote = await app.payrail.call("GET", `/quotes/${quoteId}`)
    expect(quote.body).toMatchObject({ id: quoteId, totalSendingAmount: total })
    const { transactionId } = quote.body as { readonly transactionId: string }
    expect((await app.payrail.call("GET", `/transactions/${transactionId}`)).body).toMatchObject({
      status: "COMPLETED"
    })
    const balance = `${((openingBalance - total) / 1_000_000).toFixed(6)} USDC`
    expect(await page.locator("#balance").innerText()).toBe(balance)
    expect(problems).toEqual([])
    expect(requested.filter((path) => !(path === "/" || path === "/app.js" || path.startsWith("/api/")))).toEqual([])
  }, 120_000)
})
