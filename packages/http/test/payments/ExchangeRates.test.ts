import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Option } from "effect"
import { Currency, Rate } from "@payrail/core"
import { makeHarness, type Harness } from "../support/Harness.js"

const base = "/2025-10-13"
const patch = (body: unknown) => ({ method: "PATCH", body: JSON.stringify(body) })

interface ExchangeRate {
  readonly sourceCurrency: { readonly code: string; readonly decimals: number }
  readonly sendingAmount: number
  readonly minSendingAmount: number
  readonly maxSendingAmount: number
  readonly destinationCurrency: { readonly code: string; readonly decimals: number }
  readonly destinationPaymentRail: string
  readonly receivingAmount: number
  readonly exchangeRate: number
  readonly fees: { readonly fixed: number; readonly total: number }
  readonly updatedAt: string
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

/** `ceil(receiving × k)` at the answer's own rate: the rule of docs/fx-and-fees.md, with exact arithmetic. */
const convertedOf = (rate: ExchangeRate, receivingMinor: bigint) => {
  const { digits, scale } = Option.getOrThrow(Rate.fromString(String(rate.exchangeRate)))
  const shift = rate.sourceCurrency.decimals - rate.destinationCurrency.decimals
  const numerator = digits * 10n ** BigInt(Math.max(0, shift))
  const denominator = 10n ** BigInt(scale) * 10n ** BigInt(Math.max(0, -shift))
  return ceilDiv(receivingMinor * numerator, denominator)
}

/** Checks `sendingAmount == ceil(receivingAmount × k) + fees.total` and that one more unit would cost more. */
const expectExact = (rate: ExchangeRate, feesBps: ReadonlyArray<number>, fixedMinor: bigint) => {
  const received = BigInt(rate.receivingAmount)
  expect(BigInt(rate.sendingAmount)).toBe(convertedOf(rate, received) + BigInt(rate.fees.total))
  const next = convertedOf(rate, received + 1n)
  const nextTotal = feesBps.reduce((total, bps) => total + ceilDiv(next * BigInt(bps), 10_000n), next + fixedMinor)
  expect(nextTotal > BigInt(rate.sendingAmount)).toBe(true)
}

describe("GET /exchange-rates", () => {
  let api: Harness
  const list = async (query = "", auth?: string) => {
    const response = await api.request(`${base}/exchange-rates${query}`, auth === undefined ? {} : { auth })
    return { status: response.status, body: await response.json() }
  }

  beforeAll(async () => {
    api = await makeHarness()
  })
  afterAll(() => api.dispose())

  it("lists every corridor of a new platform in the reference's shape", async () => {
    const { status, body } = await list()
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(["data"])
    const [usdToUsdc, usdcToUsd] = body.data as ReadonlyArray<ExchangeRate>
    expect(body.data).toHaveLength(2)
    expect(usdToUsdc).toMatchObject({
      sourceCurrency: { code: "USD", name: "US Dollar", decimals: 2, symbol: "$" },
      sendingAmount: 10_000,
      minSendingAmount: 1,
      maxSendingAmount: 100_000_000,
      destinationCurrency: { code: "USDC", name: "USD Coin", decimals: 6 },
      destinationPaymentRail: "SOLANA"
    })
    expect(Object.keys(usdToUsdc!).sort()).toEqual(
      [
        "sourceCurrency",
        "sendingAmount",
        "minSendingAmount",
        "maxSendingAmount",
        "destinationCurrency",
        "destinationPaymentRail",
        "receivingAmount",
        "exchangeRate",
        "fees",
        "updatedAt"
      ].sort()
    )
    // USD and USDC are both pegged: the rate is 1 plus the 100 bps crypto spread, and Payrail's 25 bps fee.
    expect(usdToUsdc!.exchangeRate).toBe(1.01)
    expect(usdToUsdc!.fees).toEqual({ fixed: 0, total: usdToUsdc!.fees.total })
    expectExact(usdToUsdc!, [25], 0n)
    expect(usdToUsdc!.receivingAmount).toBe(98_762_376)
    expect(new Date(usdToUsdc!.updatedAt).getTime() % 300_000).toBe(0)
    // 10,000 micro-USDC (a cent) does not buy a cent with its fees: listed as receiving nothing.
    expect(usdcToUsd).toMatchObject({
      sourceCurrency: { code: "USDC" },
      destinationCurrency: { code: "USD" },
      destinationPaymentRail: "ACH",
      receivingAmount: 0,
      fees: { fixed: 0, total: 10_000 }
    })
  })

  it("prices with the platform's fee configuration, in the corridors asked and the order asked", async () => {
    const configured = await api.request(
      `${base}/config`,
      patch({
        supportedCurrencies: [
          { currencyCode: "USD", minAmount: 100, maxAmount: 1_000_000 },
          { currencyCode: "MXN", minAmount: 1_000, maxAmount: 50_000_000 },
          { currencyCode: "EUR", minAmount: 1, maxAmount: 1_000_000 },
          { currencyCode: "BTC", minAmount: 1, maxAmount: 100_000_000 }
        ],
        feeConfigs: [
          {
            feeType: "CROSS_CURRENCY_TRANSACTION",
            sourceCurrency: "USD",
            variableFeeBps: 50,
            fixedFee: { amount: 30, currency: "USD" }
          }
        ]
      })
    )
    expect(configured.status).toBe(200)
    const { status, body } = await list(
      "?sourceCurrency=USD&destinationCurrency=MXN&destinationCurrency=EUR&sendingAmount=10107"
    )
    expect(status).toBe(200)
    const [toMxn, toEur] = body.data as ReadonlyArray<ExchangeRate>
    expect(body.data).toHaveLength(2)
    expect(toMxn).toMatchObject({
      sourceCurrency: { code: "USD" },
      destinationCurrency: { code: "MXN" },
      destinationPaymentRail: "SPEI",
      sendingAmount: 10_107,
      minSendingAmount: 100,
      maxSendingAmount: 1_000_000,
      fees: { fixed: 30 }
    })
    expect(toEur).toMatchObject({ destinationCurrency: { code: "EUR" }, destinationPaymentRail: "SEPA_INSTANT" })
    // About 18.4 pesos per dollar, 50 bps of spread, and at most 20 bps of drift either way.
    expect(1 / toMxn!.exchangeRate).toBeGreaterThan(18.2)
    expect(1 / toMxn!.exchangeRate).toBeLessThan(18.4)
    for (const rate of [toMxn!, toEur!]) {
      expectExact(rate, [25, 50], 30n)
      // Fees cover the fixed 30 cents, Payrail's 25 bps and the platform's 50 bps of the converted amount.
      const converted = convertedOf(rate, BigInt(rate.receivingAmount))
      expect(
        BigInt(rate.fees.total) >= 30n + ceilDiv(converted * 25n, 10_000n) + ceilDiv(converted * 50n, 10_000n)
      ).toBe(true)
    }
    // The fee is configured for USD sources only.
    const fromMxn = (await list("?sourceCurrency=MXN&destinationCurrency=USD")).body.data[0] as ExchangeRate
    expect(fromMxn.fees.fixed).toBe(0)
    expectExact(fromMxn, [25], 0n)
  })

  it("lists every supported pair by default, a currency to itself only when asked", async () => {
    const { body } = await list()
    const pairs = (body.data as ReadonlyArray<ExchangeRate>).map(
      (rate) => `${rate.sourceCurrency.code}>${rate.destinationCurrency.code}`
    )
    expect(pairs).toHaveLength(12)
    expect(pairs.slice(0, 3)).toEqual(["USD>MXN", "USD>EUR", "USD>BTC"])
    expect(pairs.filter((pair) => pair.split(">")[0] === pair.split(">")[1])).toEqual([])
    const same = (await list("?sourceCurrency=USD&destinationCurrency=USD&sendingAmount=2500")).body.data
    expect(same).toEqual([
      expect.objectContaining({
        sendingAmount: 2_500,
        receivingAmount: 2_500,
        exchangeRate: 1,
        fees: { fixed: 0, total: 0 },
        destinationPaymentRail: "ACH"
      })
    ])
  })

  it("prices amounts outside the source's limits all the same, and an amount of 0 as receiving nothing", async () => {
    const above = (await list("?sourceCurrency=USD&destinationCurrency=BTC&sendingAmount=5000000")).body.data[0]
    expect(above).toMatchObject({
      sendingAmount: 5_000_000,
      maxSendingAmount: 1_000_000,
      destinationPaymentRail: "LIGHTNING"
    })
    expect(above.receivingAmount).toBeGreaterThan(0)
    const zero = (await list("?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=0")).body.data[0]
    expect(zero).toMatchObject({ sendingAmount: 0, receivingAmount: 0, fees: { fixed: 0, total: 0 } })
  })

  it("refuses a currency the platform does not support with INVALID_CURRENCY", async () => {
    for (const query of ["?sourceCurrency=GBP", "?destinationCurrency=MXN&destinationCurrency=GBP"]) {
      const { status, body } = await list(query)
      expect({ status, body }).toEqual({
        status: 400,
        body: {
          status: 400,
          code: "INVALID_CURRENCY",
          message: "The platform does not support GBP; add it to supportedCurrencies first",
          reason: "The platform does not support GBP; add it to supportedCurrencies first",
          details: { rule: "currency_not_supported_by_platform", currency: "GBP" }
        }
      })
    }
  })

  it("refuses a malformed query with INVALID_INPUT naming each field", async () => {
    for (const [query, field] of [
      ["?sourceCurrency=XYZ", "sourceCurrency"],
      ["?sourceCurrency=USD&sourceCurrency=MXN", "sourceCurrency"],
      ["?destinationCurrency=MXN&destinationCurrency=usd", "destinationCurrency"],
      ["?sendingAmount=-1", "sendingAmount"],
      ["?sendingAmount=1.5", "sendingAmount"],
      ["?sendingAmount=1e3", "sendingAmount"],
      ["?sendingAmount=010", "sendingAmount"],
      ["?sendingAmount=9007199254740992", "sendingAmount"],
      ["?sendingAmount=", "sendingAmount"]
    ] as const) {
      const { status, body } = await list(query)
      expect({ query, status, code: body.code }).toEqual({ query, status: 400, code: "INVALID_INPUT" })
      const fields = body.details.errors.map((error: { field: string }) => error.field.split(".")[0])
      expect(fields, query).toContain(field)
    }
  })

  it("needs VIEW", async () => {
    expect((await list("", await api.tokenWith(["TRANSACT"]))).status).toBe(403)
    expect((await list("", await api.tokenWith(["VIEW"]))).status).toBe(200)
    expect((await api.request(`${base}/exchange-rates`, { auth: null })).status).toBe(401)
  })

  it("is documented in the OpenAPI document with its repeatable destination", async () => {
    const document = await (await api.request("/openapi.json")).json()
    const operation = document.paths[`${base}/exchange-rates`].get
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      "sourceCurrency",
      "destinationCurrency",
      "sendingAmount"
    ])
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]))
    expect(Currency.registry.size).toBeGreaterThan(40)
  })

  it("moves with the sandbox clock: rates are published at the platform's time", async () => {
    const before = (await list("?sourceCurrency=USD&destinationCurrency=MXN")).body.data[0] as ExchangeRate
    const advanced = await api.request(`${base}/sandbox/clock/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: 3_600 })
    })
    expect(advanced.status).toBe(200)
    const after = (await list("?sourceCurrency=USD&destinationCurrency=MXN")).body.data[0] as ExchangeRate
    expect(new Date(after.updatedAt).getTime() - new Date(before.updatedAt).getTime()).toBeGreaterThanOrEqual(
      3_600_000 - 300_000
    )
  })
})
