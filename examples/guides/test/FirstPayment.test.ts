import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, root } from "@payrail/example-webhook-receiver/test/PayrailServer"
import { type Background, runShell, type ShellBlock, shellBlocks, startShell, substitute } from "./GuideCommands.js"

/*
 * docs/guides/first-payment.md, every ```sh block in order, as a reader runs them: `npm start` itself (on an
 * ephemeral port with a fresh data directory, so the embedded store and the first-start banner are the reader's),
 * the webhook receiver, then each curl command with the values the guide says to copy put in place of its <…>.
 * Each step's outcome is asserted as the guide describes it.
 */

const guide = "docs/guides/first-payment.md"

// The values the guide tells the reader to copy, filled in as the steps run; the ports are the test's own.
const values = new Map<string, string>()
const dataDir = mkdtempSync(join(tmpdir(), "payrail-first-payment-"))
const { DATABASE_URL: _unused, ...inherited } = process.env
const env: NodeJS.ProcessEnv = { ...inherited, NODE_OPTIONS: "", NO_COLOR: "1", PAYRAIL_DATA_DIR: dataDir }
const running: Array<Background> = []
let prelude = ""
let receiver: Background | undefined

/** Runs a block's commands after the `export`s of the blocks before it, and parses what it printed as JSON. */
const curl = async (block: ShellBlock) => {
  const ran = await runShell(`${prelude}\n${substitute(block.text, values)}`, root, env)
  expect(ran.code, `${guide}:${block.line} failed:\n${ran.stderr}`).toBe(0)
  return JSON.parse(ran.stdout)
}

interface Account {
  readonly id: string
  readonly balance: { readonly currency: { readonly code: string } }
}
const currencyOf = (account: Account) => account.balance.currency.code

const receiverSays = (pattern: RegExp) => receiver!.waitFor(pattern, 30_000)

/** Each block of the guide, in order, with what the guide says it does. */
const steps: ReadonlyArray<(block: ShellBlock) => Promise<void>> = [
  async (block) => {
    expect(block.text).toBe("npm start")
    const port = await freePort()
    values.set("127.0.0.1:8080", `127.0.0.1:${port}`)
    const server = startShell(block.text, root, { ...env, PORT: String(port), LOG_LEVEL: "Warning" })
    running.push(server)
    const banner = await server.waitFor(/webhook secret\s+(whsec_\S+)/)
    const label = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(server.output())?.[1] ?? ""
    expect(label("API base URL")).toBe(`http://127.0.0.1:${port}/2025-10-13`)
    values.set("<client id>", label("client id"))
    values.set("<client secret>", label("client secret"))
    values.set("<webhook secret>", banner[1]!)
  },
  async (block) => {
    const port = await freePort()
    values.set("127.0.0.1:3000", `127.0.0.1:${port}`)
    values.set("PORT=3000", `PORT=${port}`)
    receiver = startShell(substitute(block.text, values), root, env)
    running.push(receiver)
    await receiver.waitFor(new RegExp(`receiving Payrail webhooks at http://127\\.0\\.0\\.1:${port}/webhooks`), 60_000)
  },
  async (block) => {
    expect(block.text).toMatch(/^(export [A-Z_]+=.*\n?)+$/)
    prelude = substitute(block.text, values)
    const ran = await runShell(`${prelude}\ncurl -fsS -u "$PAYRAIL_AUTH" "$PAYRAIL_API/customers"`, root, env)
    expect(ran.code, ran.stderr).toBe(0)
  },
  async (block) => {
    const config = await curl(block)
    expect(config.webhookEndpoint).toBe(`http://${values.get("127.0.0.1:3000")}/webhooks`)
    expect(config.supportedCurrencies.map((currency: { currencyCode: string }) => currency.currencyCode)).toEqual([
      "USD",
      "MXN"
    ])
    await receiverSays(/verified TEST/)
  },
  async (block) => {
    const customer = await curl(block)
    expect(customer).toMatchObject({ id: expect.stringMatching(/^Customer:/), fullName: "Ada Lovelace" })
    values.set("<customer id>", customer.id)
  },
  async (block) => {
    const accounts = await curl(block)
    const currencies = accounts.data.map(currencyOf)
    expect(currencies).toEqual(expect.arrayContaining(["USD", "MXN"]))
    values.set("<USD account id>", accounts.data.find((account: Account) => currencyOf(account) === "USD").id)
  },
  async (block) => {
    const account = await curl(block)
    expect(account).toMatchObject({ id: values.get("<USD account id>"), balance: { amount: 50_000 } })
    await receiverSays(/verified INCOMING_PAYMENT Transaction:\S+ COMPLETED/)
  },
  async (block) => {
    const external = await curl(block)
    expect(external).toMatchObject({ status: "ACTIVE", currency: "MXN", accountInfo: { paymentRails: ["SPEI"] } })
    values.set("<external account id>", external.id)
  },
  async (block) => {
    const quote = await curl(block)
    expect(quote).toMatchObject({
      id: expect.stringMatching(/^Quote:/),
      status: "PENDING",
      totalSendingAmount: 10_000,
      sendingCurrency: { code: "USD" },
      receivingCurrency: { code: "MXN" }
    })
    expect(quote.feesIncluded).toBeGreaterThan(0)
    expect(quote.totalReceivingAmount).toBeGreaterThan(10_000)
    values.set("<quote id>", quote.id)
  },
  async (block) => {
    const executed = await curl(block)
    expect(executed).toMatchObject({ id: values.get("<quote id>"), status: "PROCESSING" })
    values.set("<transaction id>", executed.transactionId)
  },
  async (block) => {
    // "Run the command again if it still says PROCESSING."
    const deadline = Date.now() + 30_000
    let transaction = await curl(block)
    while (transaction.status === "PROCESSING" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      transaction = await curl(block)
    }
    expect(transaction).toMatchObject({
      status: "COMPLETED",
      sentAmount: { amount: 10_000, currency: { code: "USD" } },
      receivedAmount: { currency: { code: "MXN" } },
      paymentRail: "SPEI",
      settledAt: expect.any(String)
    })
  },
  async (block) => {
    const transactionId = values.get("<transaction id>")!
    await receiverSays(new RegExp(`verified OUTGOING_PAYMENT ${transactionId} COMPLETED`))
    // The server records each answer just after the receiver has printed the event: a reader looking a moment later
    // sees every delivery DELIVERED.
    const settled = (data: ReadonlyArray<{ status: string }>) =>
      data.length > 0 && data.every((delivery) => delivery.status === "DELIVERED")
    const deadline = Date.now() + 20_000
    let deliveries = await curl(block)
    while (!settled(deliveries.data) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      deliveries = await curl(block)
    }
    expect(deliveries.data.length).toBeGreaterThan(0)
    for (const delivery of deliveries.data) {
      expect(delivery).toMatchObject({ status: "DELIVERED", lastResponseStatus: 200, eventType: "OUTGOING_PAYMENT" })
    }
  }
]

afterAll(async () => {
  for (const background of running.reverse()) await background.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("docs/guides/first-payment.md", () => {
  const blocks = shellBlocks(root, guide)

  it("has a step of this test for each of its sh blocks", () => {
    expect(blocks).toHaveLength(steps.length)
  })

  // One test per block, in the guide's order: a failure names the block's line.
  blocks.forEach((block, index) => {
    it(`runs the block at line ${block.line}: ${block.text.split("\n")[0]}`, async () => {
      const step = steps[index]
      if (step === undefined) throw new Error(`no step of this test for ${guide}:${block.line}`)
      await step(block)
    }, 300_000)
  })
})
