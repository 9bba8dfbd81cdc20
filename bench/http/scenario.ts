import { type LoadSpec, unique } from "./load.js"
import type { ReferenceServer } from "./servers.js"

/** The versioned base path of the API (PayrailApi.basePath). */
export const basePath = "/2025-10-13"

/** The endpoints the bench measures, in the order of the table. */
export const endpoints = ["health", "getCustomer", "listCustomers", "createCustomer", "fund"] as const
export type Endpoint = (typeof endpoints)[number]

/** How each endpoint appears in the table. */
export const endpointLabels: Record<Endpoint, string> = {
  health: "GET /health",
  getCustomer: "GET /customers/{id}",
  listCustomers: "GET /customers?limit=20",
  createCustomer: "POST /customers",
  fund: "POST .../{id}/fund"
}

/** What one server holds for the bench: a customer to read and that customer's internal account to fund. */
export interface Seeded {
  readonly customerId: string
  readonly accountId: string
}

const call = async (
  server: ReferenceServer,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) => {
  const response = await fetch(`${server.baseUrl}${basePath}${path}`, {
    method,
    headers: { authorization: server.authorization, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${server.label}: ${method} ${path} answered ${response.status}: ${text}`)
  return JSON.parse(text) as Record<string, unknown>
}

// Every customer is distinct: platformCustomerId and email carry a value unique to the bench run.
const customer = (index: string) => ({
  customerType: "INDIVIDUAL",
  platformCustomerId: `bench-${index}`,
  email: `bench-${index}@example.com`,
  fullName: "Ada Lovelace",
  birthDate: "1990-01-01",
  nationality: "GB"
})

/**
 * Creates `customers` customers (8 at a time) so that the list has pages, then reads the first one's internal
 * account (creating a customer opens it) and funds it once, so every later request meets warm tables.
 */
export const seed = async (server: ReferenceServer, customers: number): Promise<Seeded> => {
  const ids: Array<string> = []
  for (let start = 0; start < customers; start += 8) {
    const batch = Array.from({ length: Math.min(8, customers - start) }, (_, offset) =>
      call(server, "POST", "/customers", customer(unique(`seed-${start + offset}`)))
    )
    for (const created of await Promise.all(batch)) ids.push(String(created["id"]))
  }
  const customerId = ids[0]
  if (customerId === undefined) throw new Error("no customer was seeded")
  const accounts = await call(server, "GET", `/internal-accounts?customerId=${encodeURIComponent(customerId)}`)
  const first = Array.isArray(accounts["data"])
    ? (accounts["data"][0] as Record<string, unknown> | undefined)
    : undefined
  if (typeof first?.["id"] !== "string") throw new Error(`${server.label}: the seeded customer has no internal account`)
  await call(
    server,
    "POST",
    `/sandbox/internal-accounts/${encodeURIComponent(first["id"])}/fund`,
    { amount: 100 },
    {
      "idempotency-key": `bench-${unique("seed")}`
    }
  )
  return { customerId, accountId: first["id"] }
}

/** The load of `endpoint` on the reference server: 50 connections, 16 for funding, as the issue measures. */
export const referenceLoad = (endpoint: Endpoint, server: ReferenceServer, seeded: Seeded): LoadSpec => {
  const authenticated = { authorization: server.authorization }
  switch (endpoint) {
    case "health":
      return { method: "GET", path: "/health", headers: {}, connections: 50 }
    case "getCustomer":
      return {
        method: "GET",
        path: `${basePath}/customers/${encodeURIComponent(seeded.customerId)}`,
        headers: authenticated,
        connections: 50
      }
    case "listCustomers":
      return { method: "GET", path: `${basePath}/customers?limit=20`, headers: authenticated, connections: 50 }
    case "createCustomer":
      return {
        method: "POST",
        path: `${basePath}/customers`,
        headers: { ...authenticated, "content-type": "application/json" },
        connections: 50,
        perRequest: (sequence) => ({ body: JSON.stringify(customer(unique(sequence))) })
      }
    case "fund":
      return {
        method: "POST",
        path: `${basePath}/sandbox/internal-accounts/${encodeURIComponent(seeded.accountId)}/fund`,
        headers: { ...authenticated, "content-type": "application/json" },
        body: JSON.stringify({ amount: 100 }),
        connections: 16,
        perRequest: (sequence) => ({ headers: { "idempotency-key": `bench-${unique(sequence)}` } })
      }
  }
}

/** The raw node:http baseline gets the same method, path and connections (it answers 300 bytes to anything). */
export const rawLoad = (endpoint: Endpoint): LoadSpec => ({
  method: "GET",
  path: "/",
  headers: {},
  connections: endpoint === "fund" ? 16 : 50
})
