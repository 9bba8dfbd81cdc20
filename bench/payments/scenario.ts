import type { Client } from "./client.js"

/** A source and a destination USD internal account of two distinct customers. */
export interface Pair {
  readonly source: string
  readonly destination: string
}

/** The accounts the bench pays between: `pairs` distinct pairs, and the one funded source of the hot variant. */
export interface Accounts {
  readonly pairs: ReadonlyArray<Pair>
  /** One funded source account that every client pays from in the hot variant (to the pairs' destinations). */
  readonly hotSource: string
}

/** The amount every funded source receives (10^10 minor units: 100 million USD) and each payment's amount. */
export const fundingMinor = 10_000_000_000
export const paymentMinor = 100

const usdAccountOf = async (client: Client, customerId: string): Promise<string> => {
  const accounts = await client.expect("GET", `/internal-accounts?customerId=${encodeURIComponent(customerId)}`)
  const data = Array.isArray(accounts["data"]) ? (accounts["data"] as Array<Record<string, unknown>>) : []
  const usd = data.find((account) => {
    const balance = account["balance"] as { currency?: { code?: string } } | undefined
    return account["type"] !== "EMBEDDED_WALLET" && balance?.currency?.code === "USD"
  })
  if (typeof usd?.["id"] !== "string") throw new Error(`customer ${customerId} has no USD internal account`)
  return usd["id"]
}

const newCustomer = async (client: Client, name: string): Promise<string> => {
  const created = await client.expect("POST", "/customers", { customerType: "INDIVIDUAL", fullName: name })
  return usdAccountOf(client, String(created["id"]))
}

/** Funds `accountId` once with `fundingMinor` (a sandbox funding, its own idempotency key). */
export const fund = (client: Client, accountId: string, key: string) =>
  client.expect(
    "POST",
    `/sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`,
    { amount: fundingMinor },
    { "idempotency-key": key }
  )

/**
 * Creates `pairs` pairs of customers (8 requests at a time) and one more customer for the hot source, and funds
 * every source. Each customer opens its own USD internal account, so no two pairs share a row.
 */
export const seedAccounts = async (client: Client, pairs: number, runId: string): Promise<Accounts> => {
  const made: Array<Pair> = []
  for (let start = 0; start < pairs; start += 8) {
    const batch = Array.from({ length: Math.min(8, pairs - start) }, async (_, offset) => {
      const index = start + offset
      const source = await newCustomer(client, `Payer ${index}`)
      const destination = await newCustomer(client, `Payee ${index}`)
      await fund(client, source, `bench-payments-${runId}-${index}`)
      return { source, destination }
    })
    made.push(...(await Promise.all(batch)))
  }
  const hotSource = await newCustomer(client, "Hot payer")
  await fund(client, hotSource, `bench-payments-${runId}-hot`)
  return { pairs: made, hotSource }
}

/** Which accounts the clients pay between: spread over the pairs, or all from the hot source. */
export type Variant = "spread" | "hot"

/**
 * The pair client `client` pays with on its `turn`-th payment. Client c takes pairs c, c + clients, c + 2 clients…
 * in turn, so no two clients share a row in the spread variant; in the hot variant every client pays from the hot
 * source to its own destinations.
 */
export const pairFor = (accounts: Accounts, variant: Variant, client: number, clients: number, turn: number): Pair => {
  const own = Math.max(1, Math.floor(accounts.pairs.length / clients))
  const pair = accounts.pairs[(client + clients * (turn % own)) % accounts.pairs.length]
  if (pair === undefined) throw new Error("no account pairs")
  return variant === "hot" ? { source: accounts.hotSource, destination: pair.destination } : pair
}

/** The outcome of one closed-loop run. */
export interface PaymentRun {
  /** Payments whose quote and execute both answered 2xx. */
  readonly payments: number
  readonly perSecond: number
  /** Latency of a payment (quote, then execute), and of each of its two requests, in ms. */
  readonly paymentMs: Latencies
  readonly quoteMs: Latencies
  readonly executeMs: Latencies
  /** Non-2xx answers and connection errors, by status (`0` for a connection error), of either request. */
  readonly failures: Readonly<Record<string, number>>
  /** The transactions of the executed payments, for the settlement check. */
  readonly transactionIds: ReadonlyArray<string>
}

export interface Latencies {
  readonly p50: number
  readonly p99: number
}

const percentile = (sorted: ReadonlyArray<number>, fraction: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0)

/** p50 and p99 of `values`. */
export const latencies = (values: ReadonlyArray<number>): Latencies => {
  const sorted = [...values].sort((a, b) => a - b)
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) }
}

/**
 * `clients` closed loops for `seconds`: each sends POST /quotes (`paymentMinor` USD, SENDING side locked) for its
 * next pair, then POST /quotes/{id}/execute, and starts again as soon as the execute answers.
 */
export const runPayments = async (
  client: Client,
  accounts: Accounts,
  variant: Variant,
  clients: number,
  seconds: number
): Promise<PaymentRun> => {
  const paymentMs: Array<number> = []
  const quoteMs: Array<number> = []
  const executeMs: Array<number> = []
  const failures: Record<string, number> = {}
  const transactionIds: Array<string> = []
  const fail = (status: number) => {
    failures[String(status)] = (failures[String(status)] ?? 0) + 1
  }
  const started = performance.now()
  const deadline = started + seconds * 1000
  const loop = async (index: number) => {
    for (let turn = 0; performance.now() < deadline; turn++) {
      const { source, destination } = pairFor(accounts, variant, index, clients, turn)
      const quoted = await client.send("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: source },
        destination: { destinationType: "ACCOUNT", accountId: destination },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: paymentMinor
      })
      if (quoted.status !== 201) {
        fail(quoted.status)
        continue
      }
      const executed = await client.send("POST", `/quotes/${encodeURIComponent(String(quoted.body["id"]))}/execute`)
      if (executed.status !== 200) {
        fail(executed.status)
        continue
      }
      quoteMs.push(quoted.ms)
      executeMs.push(executed.ms)
      paymentMs.push(quoted.ms + executed.ms)
      transactionIds.push(String(quoted.body["transactionId"]))
    }
  }
  await Promise.all(Array.from({ length: clients }, (_, index) => loop(index)))
  const elapsed = (performance.now() - started) / 1000
  return {
    payments: paymentMs.length,
    perSecond: paymentMs.length / elapsed,
    paymentMs: latencies(paymentMs),
    quoteMs: latencies(quoteMs),
    executeMs: latencies(executeMs),
    failures,
    transactionIds
  }
}
