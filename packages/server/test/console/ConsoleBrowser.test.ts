import { mkdirSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { once } from "node:events"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import * as BrowserSupport from "@payrail/http/test/support/Browser"
import { type RunningServer, startServer } from "../ServerProcess.js"

const { skip, title } = BrowserSupport.suite("sandbox console in headless Chromium, on the reference server")

const artifacts = fileURLToPath(new URL("./test-results/", import.meta.url))
const base = "/2025-10-13"

/** The fields this test reads from the API's answers (and from a webhook payload). */
interface Json {
  readonly id: string
  readonly status: string
  readonly type: string
  readonly eventType: string
  readonly transactionId: string
  readonly totalReceivingAmount: number
  readonly offsetSeconds: number
  readonly balance: { readonly amount: number; readonly currency: { readonly code: string } }
  readonly supportedCurrencies: ReadonlyArray<{
    readonly currencyCode: string
    readonly minAmount: number
    readonly maxAmount: number
  }>
  readonly data: Json & ReadonlyArray<Json>
}

/** The platform's webhook receiver: answers every delivery 200 and keeps the `webhook-id` of each. */
const receiver = async () => {
  const received: Array<string> = []
  const server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      received.push(String(request.headers["webhook-id"] ?? ""))
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
    })
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no port")
  return { server, received, url: `http://127.0.0.1:${address.port}/hooks` }
}

const until = async <A>(what: string, read: () => Promise<A | undefined>, timeoutMs = 30_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(skip)(title, () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let server: RunningServer
  let hooks: Awaited<ReturnType<typeof receiver>>
  let dataDir: string
  const problems: Array<string> = []
  const seeded = {} as {
    alice: string
    bob: string
    aliceUsd: string
    bobEur: string
    quote: Json
    card: string
  }

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${base}${path}`, {
      method,
      headers: { authorization: server.auth, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as Json }
  }
  const created = async (method: string, path: string, body?: unknown) => {
    const answer = await call(method, path, body)
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
    return answer.body
  }
  const accountsOf = async (customerId: string) => {
    const page = await created("GET", `/internal-accounts?customerId=${customerId}&limit=100`)
    return Object.fromEntries(
      page.data
        .filter((account) => account.type === "INTERNAL_FIAT")
        .map((account) => [account.balance.currency.code, account.id])
    )
  }
  const shot = (name: string) => page.screenshot({ path: `${artifacts}console-${name}.png`, fullPage: true })
  const open = async (view: string) => {
    await page.getByRole("navigation", { name: "Console views" }).getByRole("link", { name: view }).click()
    // The busy flag alone can be read before the navigation has set it, with the previous view still shown: the new
    // view is in once its heading is (a view is put in whole).
    await page.getByRole("main").getByRole("heading", { name: view, exact: true }).waitFor()
    await page.locator("main[aria-busy]").waitFor({ state: "detached" })
  }

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    hooks = await receiver()
    dataDir = await mkdtemp(join(tmpdir(), "payrail-console-"))
    server = await startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory" })

    // A platform with data, made through the API: EUR beside USD, customers approved at creation, a webhook endpoint.
    const config = await created("GET", "/config")
    await created("PATCH", "/config", {
      webhookEndpoint: hooks.url,
      skipPaperwork: true,
      supportedCurrencies: [
        ...config.supportedCurrencies.map(({ currencyCode, minAmount, maxAmount }) => ({
          currencyCode,
          minAmount,
          maxAmount
        })),
        { currencyCode: "EUR", minAmount: 1, maxAmount: 100_000_000 }
      ]
    })
    seeded.alice = (
      await created("POST", "/customers", {
        customerType: "INDIVIDUAL",
        fullName: "Alice Console",
        platformCustomerId: "console-alice-100"
      })
    ).id
    seeded.bob = (
      await created("POST", "/customers", {
        customerType: "INDIVIDUAL",
        fullName: "Bob Console",
        platformCustomerId: "console-bob-100"
      })
    ).id
    seeded.aliceUsd = (await accountsOf(seeded.alice))["USD"]!
    seeded.bobEur = (await accountsOf(seeded.bob))["EUR"]!
    await created("POST", `/sandbox/internal-accounts/${seeded.aliceUsd}/fund`, { amount: 100_000 })
    const quote = await created("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: seeded.aliceUsd },
      destination: { destinationType: "ACCOUNT", accountId: seeded.bobEur },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 25_000,
      description: "Console seed"
    })
    await created("POST", `/quotes/${quote.id}/execute`)
    await until("the cross-currency payment to complete", async () => {
      const transaction = await call("GET", `/transactions/${quote.transactionId}`)
      return transaction.body.status === "COMPLETED" ? transaction.body : undefined
    })
    seeded.quote = (await call("GET", `/quotes/${quote.id}`)).body
    const card = await created("POST", "/cards", {
      customerId: seeded.alice,
      form: "VIRTUAL",
      fundingSource: seeded.aliceUsd
    })
    seeded.card = card.id
    await until("the card to be active", async () =>
      (await call("GET", `/cards/${card.id}`)).body.status === "ACTIVE" ? true : undefined
    )
    await until("webhooks to be delivered", async () => {
      const deliveries = await call("GET", "/webhooks/deliveries?status=DELIVERED&limit=100")
      return deliveries.body.data.some((delivery) => delivery.eventType.startsWith("OUTGOING_PAYMENT"))
        ? true
        : undefined
    })

    browser = await BrowserSupport.launch()
    const [clientId, clientSecret] = Buffer.from(server.auth.slice("Basic ".length), "base64")
      .toString()
      .split(":") as [string, string]
    context = await browser.newContext({ httpCredentials: { username: clientId, password: clientSecret } })
    page = await context.newPage()
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
    page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`))
    const loaded = await page.goto(`${server.baseUrl}/console`)
    expect(loaded?.status()).toBe(200)
    await page.locator("main[aria-busy]").waitFor({ state: "detached" })
  }, 240_000)

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await server?.stop()
    hooks?.server.close()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  // No view logs an error, throws, or has a request refused (by the policy or otherwise).
  afterEach(() => {
    expect(problems.splice(0)).toEqual([])
  })

  it("shows the customers, and a customer's accounts with their balances", async () => {
    expect(await page.getByRole("banner").getByText("Payrail sandbox console").count()).toBe(1)
    const main = page.getByRole("main")
    await expect.poll(() => main.getByRole("heading", { level: 2 }).textContent()).toBe("Customers")
    expect(await main.getByRole("row", { name: /Alice Console/ }).textContent()).toContain("console-alice-100")
    expect(await main.getByRole("row", { name: /Bob Console/ }).textContent()).toContain("APPROVED")
    await shot("customers")

    await main.getByRole("link", { name: "Alice Console" }).click()
    await main.getByRole("heading", { name: "Alice Console" }).waitFor()
    const usd = main.getByRole("row", { name: new RegExp(seeded.aliceUsd) })
    // Funded 1000.00 USD, then paid 250.00 USD to Bob's EUR account.
    expect(await usd.textContent()).toContain("750.00 USD")
    expect(await main.getByRole("row", { name: new RegExp(seeded.quote.transactionId) }).textContent()).toMatch(
      /OUTGOING.*COMPLETED.*250\.00 USD/
    )
    await shot("customer-accounts")
  })

  it("shows the completed cross-currency quote and its transaction with their state history", async () => {
    await open("Quotes")
    const row = page.getByRole("row", { name: new RegExp(seeded.quote.id) })
    expect(await row.textContent()).toMatch(/COMPLETED.*250\.00 USD.*EUR/)
    await row.getByRole("link").click()
    await page.getByRole("heading", { name: `Quote ${seeded.quote.id}` }).waitFor()
    const history = page.getByRole("table").filter({ has: page.getByText("Each state change") })
    expect(await history.getByRole("row", { name: /COMPLETED/ }).count()).toBeGreaterThan(0)
    // Oldest first: the quote's creation, then the state changes its webhooks reported.
    expect(await history.getByRole("row").nth(1).textContent()).toContain("Created")
    await shot("quote")

    await page.getByRole("link", { name: seeded.quote.transactionId }).click()
    await page.getByRole("heading", { name: `Transaction ${seeded.quote.transactionId}` }).waitFor()
    const definitions = await page.locator("dl").textContent()
    expect(definitions).toContain("COMPLETED")
    expect(definitions).toContain(`${(seeded.quote.totalReceivingAmount / 100).toFixed(2)} EUR`)
    expect(
      await page
        .getByRole("table")
        .getByRole("row", { name: /OUTGOING_PAYMENT/ })
        .count()
    ).toBeGreaterThan(0)
    await shot("transaction")

    await open("Transactions")
    expect(await page.getByRole("row", { name: new RegExp(seeded.quote.transactionId) }).textContent()).toContain(
      "COMPLETED"
    )
  })

  it("shows a delivery's payload and response, and redelivers it", async () => {
    await open("Webhook deliveries")
    const delivered = page.getByRole("row", { name: /OUTGOING_PAYMENT.*DELIVERED/ }).first()
    expect(await delivered.textContent()).toContain("HTTP 200")
    await shot("webhooks")
    await delivered.getByRole("link").click()
    await page.getByRole("heading", { name: /^Delivery of OUTGOING_PAYMENT/ }).waitFor()
    const payload = JSON.parse((await page.locator("pre").textContent()) ?? "{}") as Json
    expect(payload).toMatchObject({ id: expect.stringMatching(/^Webhook:/), type: expect.any(String) })
    expect(payload.data.id).toMatch(/^Transaction:/)
    expect(await page.locator("dl").nth(1).textContent()).toContain("200")
    await shot("delivery")

    const before = hooks.received.filter((id) => id === payload.id).length
    await page.getByRole("button", { name: /^Redeliver/ }).click()
    await page.getByRole("status").filter({ hasText: "Redelivery of" }).waitFor()
    expect(await page.getByRole("status").first().textContent()).toMatch(/queued: PENDING/)
    // The server's worker sends it again: the receiver sees the same webhook id once more.
    await until("the redelivery", async () =>
      hooks.received.filter((id) => id === payload.id).length > before ? true : undefined
    )
    await shot("redelivered")
  })

  it("advances the sandbox clock", async () => {
    await open("Sandbox clock")
    const before = (await call("GET", "/sandbox/clock")).body
    await page.getByLabel("Seconds to move forward").fill("86400")
    await page.getByRole("button", { name: "Advance" }).click()
    await page.getByRole("status").filter({ hasText: "Clock advanced by 86400 seconds" }).waitFor()
    expect(await page.locator("dl").textContent()).toContain(`${before.offsetSeconds + 86_400} seconds`)
    expect((await call("GET", "/sandbox/clock")).body.offsetSeconds).toBe(before.offsetSeconds + 86_400)
    await shot("clock")
  })

  it("runs the simulators: funding an account, an UMA receipt, paying a funded quote and a card authorization", async () => {
    await open("Simulators")
    const fund = page.getByRole("group", { name: "Fund an internal account" })
    await fund.getByLabel("Account").selectOption(seeded.aliceUsd)
    await fund.getByLabel("Amount (minor units)").fill("5000")
    await fund.getByRole("button", { name: "Run" }).click()
    await page.locator("#result-fund").getByText("HTTP 200").waitFor()
    const account = (await call("GET", `/internal-accounts/${seeded.aliceUsd}`)).body
    expect(account.balance.amount).toBe(75_000 + 5_000)

    const uma = page.getByRole("group", { name: "Receive an UMA payment" })
    await uma.getByLabel("Receiver UMA address or customer id").fill(seeded.bob)
    await uma.getByLabel("Currency").fill("EUR")
    await uma.getByRole("button", { name: "Run" }).click()
    await page
      .locator("#result-uma")
      .getByText(/HTTP 200/)
      .waitFor()
    expect(await page.locator("#result-uma pre").textContent()).toContain('"direction": "CREDIT"')

    // A quote funded in real time, which the send simulator pays as the payer would.
    const funded = (
      await call("POST", "/quotes", {
        source: { sourceType: "REALTIME_FUNDING", currency: "USD", customerId: seeded.alice },
        destination: { destinationType: "ACCOUNT", accountId: seeded.bobEur },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 1_000
      })
    ).body
    expect(funded.status).toBe("PENDING")
    // Its page links to the send simulator, filled in for it.
    await page.goto(`${server.baseUrl}/console#quote/${funded.id}`)
    await page.getByRole("link", { name: "Pay it with the send simulator" }).click()
    const send = page.getByRole("group", { name: "Send: pay a real-time funded quote" })
    await send.waitFor()
    expect(await send.getByLabel("Quote id").inputValue()).toBe(funded.id)
    expect(await send.getByLabel("Currency").inputValue()).toBe("USD")
    await send.getByRole("button", { name: "Run" }).click()
    await page.locator("#result-send").getByText("HTTP 200").waitFor()
    await until("the funded quote to be paid", async () => {
      const status = (await call("GET", `/quotes/${funded.id}`)).body.status
      return status === "PROCESSING" || status === "COMPLETED" ? status : undefined
    })

    const card = page.getByRole("group", { name: "Card authorization" })
    await card.getByLabel("Card").selectOption(seeded.card)
    await card.getByRole("button", { name: "Run" }).click()
    await page.locator("#result-card").getByText("HTTP 200").waitFor()
    expect(await page.locator("#result-card pre").textContent()).toContain('"status": "AUTHORIZED"')
    await shot("simulators")
  })
})
