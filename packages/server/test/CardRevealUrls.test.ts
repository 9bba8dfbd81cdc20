import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { type RunningServer, startServer } from "./ServerProcess.js"

const base = "/2025-10-13"

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const serve = async (env: Record<string, string> = {}) => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-card-links-"))
  temporaryDirectories.push(dataDir)
  return startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory", ...env })
}

// A card of a new cardholder of the server's sandbox platform (skip-paperwork, so the customer is created APPROVED)
// and the reveal link the API answers for it.
const revealLinkOf = async (server: RunningServer): Promise<string> => {
  const headers = { authorization: server.auth, "content-type": "application/json" }
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  expect((await send("PATCH", "/config", { skipPaperwork: true })).status).toBe(200)
  const customer = await send("POST", "/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Kim Lee",
    platformCustomerId: "card-link"
  })
  expect(customer.status).toBe(201)
  const accounts = await send("GET", `/internal-accounts?customerId=${String(customer.body["id"])}`)
  const usd = (
    accounts.body["data"] as ReadonlyArray<{ id: string; type: string; balance: { currency: { code: string } } }>
  ).find((account) => account.type === "INTERNAL_FIAT" && account.balance.currency.code === "USD")
  expect(usd).toBeDefined()
  const card = await send("POST", "/cards", {
    customerId: customer.body["id"],
    form: "VIRTUAL",
    fundingSource: usd?.id
  })
  expect(card.status).toBe(201)
  const reveal = await send("POST", `/cards/${String(card.body["id"])}/reveal`)
  expect(reveal.status).toBe(200)
  return String(reveal.body["panEmbedUrl"])
}

it("starts panEmbedUrl with the address the server listens on; the page opens there once", async () => {
  const server = await serve()
  try {
    const link = await revealLinkOf(server)
    expect(link.startsWith(`${server.baseUrl}/cards/reveal/`)).toBe(true)
    const first = await fetch(link)
    expect(first.status).toBe(200)
    expect(first.headers.get("content-type")).toMatch(/^text\/html/)
    expect((await fetch(link)).status).toBe(410)
  } finally {
    await server.stop()
  }
})

it("starts panEmbedUrl with PAYRAIL_PUBLIC_URL when it is set (a proxy in front of the server)", async () => {
  const server = await serve({ PAYRAIL_PUBLIC_URL: "https://cards.example.com/payrail" })
  try {
    const link = await revealLinkOf(server)
    expect(link).toMatch(/^https:\/\/cards\.example\.com\/payrail\/cards\/reveal\/[A-Za-z0-9_-]+$/)
    // The proxy forwards the path below its prefix: the server answers it.
    const page = await fetch(`${server.baseUrl}${new URL(link).pathname.replace(/^\/payrail/, "")}`)
    expect(page.status).toBe(200)
  } finally {
    await server.stop()
  }
})
