import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { type RunningServer, startServer } from "./ServerProcess.js"

const base = "/2025-10-13"

const temporaryDirectories: Array<string> = []
afterAll(() => Promise.all(temporaryDirectories.map((directory) => rm(directory, { recursive: true, force: true }))))

const serve = async (env: Record<string, string> = {}) => {
  const dataDir = await mkdtemp(join(tmpdir(), "payrail-kyc-links-"))
  temporaryDirectories.push(dataDir)
  return startServer({ PAYRAIL_DATA_DIR: dataDir, PAYRAIL_STORAGE: "memory", ...env })
}

// A hosted verification link of a new individual customer of the server's sandbox platform.
const linkOf = async (server: RunningServer): Promise<string> => {
  const headers = { authorization: server.auth, "content-type": "application/json" }
  const created = await fetch(`${server.baseUrl}${base}/customers`, {
    method: "POST",
    headers,
    body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId: "kyc-link", region: "US" })
  })
  const customer = (await created.json()) as { id: string }
  const link = await fetch(`${server.baseUrl}${base}/customers/${customer.id}/kyc-link`, {
    method: "POST",
    headers,
    body: "{}"
  })
  expect(link.status).toBe(201)
  return ((await link.json()) as { kycUrl: string }).kycUrl
}

it("starts kycUrl with the address the server listens on, and serves the page there", async () => {
  const server = await serve()
  try {
    const kycUrl = await linkOf(server)
    expect(kycUrl.startsWith(`${server.baseUrl}/verify/`)).toBe(true)
    const page = await fetch(kycUrl)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
  } finally {
    await server.stop()
  }
})

it("starts kycUrl with PAYRAIL_PUBLIC_URL when it is set (a proxy in front of the server)", async () => {
  const server = await serve({ PAYRAIL_PUBLIC_URL: "https://verify.example.com/payrail" })
  try {
    const kycUrl = await linkOf(server)
    expect(kycUrl).toMatch(/^https:\/\/verify\.example\.com\/payrail\/verify\/kyc_[A-Za-z0-9_-]+$/)
    // The proxy forwards the path below its prefix: the server answers it.
    const page = await fetch(`${server.baseUrl}${new URL(kycUrl).pathname.replace(/^\/payrail/, "")}`)
    expect(page.status).toBe(200)
  } finally {
    await server.stop()
  }
})
