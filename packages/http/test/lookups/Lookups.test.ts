import { expect, it } from "vitest"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

/*
 * The lookups over HTTP on every storage adapter, every response checked against the OpenAPI document:
 * discoveries per corridor, UMA providers, VASPs (paged), a crypto withdrawal's fee estimate and the End User Terms,
 * with every refusal.
 */
describeOverHttp("lookups", {}, (api) => {
  const t = () => requestsOf(api)
  type Institution = { bankName: string; displayName: string; country: string; currency: string }

  it("GET /discoveries answers the institutions of a corridor, all of them without filters", async () => {
    const philippines = await t().send("GET", "/discoveries?country=PH&currency=PHP")
    expect(philippines.status).toBe(200)
    const data = philippines.body.data as ReadonlyArray<Institution>
    expect(data.length).toBeGreaterThan(50)
    expect(data.every((entry) => entry.country === "PH" && entry.currency === "PHP")).toBe(true)
    expect(data.map((entry) => entry.bankName)).toEqual(expect.arrayContaining(["BDO UNIBANK, INC."]))
    const byCountry = await t().send("GET", "/discoveries?country=SN")
    expect((byCountry.body.data as ReadonlyArray<Institution>).every((entry) => entry.currency === "XOF")).toBe(true)
    const byCurrency = await t().send("GET", "/discoveries?currency=EUR")
    expect(new Set((byCurrency.body.data as ReadonlyArray<Institution>).map((entry) => entry.country)).size).toBe(20)
    const all = await t().send("GET", "/discoveries")
    expect(all.body.data.length).toBeGreaterThan(5_000)
  })

  it("answers an empty list for a corridor without institutions, 400 naming an unknown country or currency", async () => {
    expect(await t().send("GET", "/discoveries?country=PH&currency=USD")).toMatchObject({
      status: 200,
      body: { data: [] }
    })
    expect(await t().send("GET", "/discoveries?country=JP")).toMatchObject({ status: 200, body: { data: [] } })
    for (const [query, field] of [
      ["country=ZZ", "country"],
      ["country=ph", "country"],
      ["currency=XXX", "currency"],
      ["currency=USDC", "currency"]
    ] as const) {
      const refused = await t().refusal("GET", `/discoveries?${query}`)
      expect(refused, query).toMatchObject({ status: 400, code: "INVALID_INPUT" })
      expect(t().fieldsOf(refused.details)).toEqual([field])
    }
  })

  it("GET /uma-providers lists the other platforms serving UMA, with the reference's filters", async () => {
    const listed = await t().send("GET", "/uma-providers")
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({ hasMore: false, totalCount: 1 })
    expect(listed.body.data).toEqual([
      {
        name: "Other platform",
        supportedRegions: ["US"],
        domain: "sandbox.payrail.local",
        supportedCurrencies: [
          expect.objectContaining({ code: "USD", decimals: 2 }),
          expect.objectContaining({ code: "USDC", decimals: 6 })
        ],
        allowListStatus: true
      }
    ])
    expect(
      (await t().send("GET", "/uma-providers?countryCode=US&currencyCode=USD&hasBlockedProviders=false")).body.data
    ).toHaveLength(1)
    expect((await t().send("GET", "/uma-providers?countryCode=MX")).body).toMatchObject({ data: [], totalCount: 0 })
    expect((await t().send("GET", "/uma-providers?currencyCode=EUR")).body.data).toEqual([])
    const mine = await t().send("GET", "/uma-providers", undefined, api.otherPlatformBasic)
    expect(mine.body.data.map((provider: { name: string }) => provider.name)).toEqual(["Test platform"])
    for (const [query, field] of [
      ["countryCode=USA", "countryCode"],
      ["hasBlockedProviders=maybe", "hasBlockedProviders"],
      ["sortOrder=up", "sortOrder"],
      ["limit=0", "limit"]
    ] as const) {
      const refused = await t().refusal("GET", `/uma-providers?${query}`)
      expect(refused, query).toMatchObject({ status: 400, code: "INVALID_INPUT" })
      expect(t().fieldsOf(refused.details)).toEqual([field])
    }
  })

  it("GET /vasps pages the directory by name and searches it", async () => {
    const first = await t().send("GET", "/vasps?limit=30")
    expect(first.status).toBe(200)
    expect(first.body.data).toHaveLength(30)
    expect(first.body.hasMore).toBe(true)
    expect(first.body.data[0]).toEqual({ vaspName: "Anchorage Digital", url: "https://www.anchorage.com" })
    const names: Array<string> = first.body.data.map((vasp: { vaspName: string }) => vasp.vaspName)
    let cursor: string | undefined = first.body.nextCursor
    while (cursor !== undefined) {
      const next = await t().send("GET", `/vasps?limit=30&cursor=${encodeURIComponent(cursor)}`)
      names.push(...next.body.data.map((vasp: { vaspName: string }) => vasp.vaspName))
      cursor = next.body.hasMore ? next.body.nextCursor : undefined
    }
    expect(names.length).toBe(first.body.totalCount)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    const kraken = await t().send("GET", "/vasps?search=KRAK")
    expect(kraken.body).toEqual({
      data: [{ vaspName: "Kraken", url: "https://www.kraken.com" }],
      hasMore: false,
      totalCount: 1
    })
    expect((await t().send("GET", "/vasps?search=no-such-vasp")).body).toEqual({
      data: [],
      hasMore: false,
      totalCount: 0
    })
    const badCursor = await t().refusal("GET", "/vasps?cursor=nonsense")
    expect(badCursor).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(badCursor.details)).toEqual(["cursor"])
  })

  it("GET /customers/end-user-terms answers the current version and its address", async () => {
    const terms = await t().send("GET", "/customers/end-user-terms")
    expect(terms).toMatchObject({ status: 200, body: { version: "V1" } })
    expect(terms.body.url).toMatch(/^https:\/\//)
  })

  it("every lookup needs VIEW and answers it to a VIEW token", async () => {
    const viewer = await api.tokenWith(["VIEW"])
    const manager = await api.tokenWith(["MANAGE"])
    for (const path of ["/discoveries", "/uma-providers", "/vasps", "/customers/end-user-terms"]) {
      expect((await t().send("GET", path, undefined, viewer)).status, path).toBe(200)
      expect(await t().refusal("GET", path, undefined, manager), path).toMatchObject({ status: 403, code: "FORBIDDEN" })
    }
    expect((await t().send("GET", "/vasps", undefined, "Basic bm9uZTpub25l")).status).toBe(401)
  })
})

describeOverHttp("crypto withdrawal fee estimates", {}, (api) => {
  const t = () => requestsOf(api)
  const wallets = new Map<string, string>()
  const walletOf = async (customerId: string) => {
    const page = await t().send("GET", `/internal-accounts?customerId=${customerId}`)
    const wallet = (page.body.data as ReadonlyArray<{ id: string; type: string }>).find(
      (account) => account.type === "EMBEDDED_WALLET"
    )
    expect(wallet).toBeDefined()
    return wallet?.id ?? ""
  }
  const estimate = (body: Record<string, unknown>) => t().send("POST", "/crypto/estimate-withdrawal-fee", body)
  const solana = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
  const evm = "0xabcdef1234567890abcdef1234567890abcdef12"
  const request = async (extra: Record<string, unknown> = {}) => {
    if (!wallets.has("usdc")) {
      const customer = await t().newCustomer()
      wallets.set("usdc", await walletOf(customer.id))
      wallets.set("usd", customer.accounts["USD"] ?? "")
    }
    return {
      internalAccountId: wallets.get("usdc"),
      currency: "USDC",
      cryptoNetwork: "SOLANA",
      amount: 1_000_000,
      destinationAddress: solana,
      ...extra
    }
  }

  it("estimates the sandbox's fixed network fee: in the network's asset, and deducted in the withdrawal currency", async () => {
    expect(await estimate(await request())).toEqual({
      status: 200,
      headers: expect.anything(),
      body: { networkFee: 5_000, networkFeeAsset: "SOL", applicationFee: 0, totalFee: 10_000, netAmount: 990_000 }
    })
    const ethereum = await estimate(
      await request({ cryptoNetwork: "ETHEREUM", destinationAddress: evm, amount: 25_000_000 })
    )
    expect(ethereum.body).toEqual({
      networkFee: 300_000_000_000_000,
      networkFeeAsset: "ETH",
      applicationFee: 0,
      totalFee: 1_000_000,
      netAmount: 24_000_000
    })
    const base = await estimate(await request({ cryptoNetwork: "BASE", destinationAddress: evm }))
    expect(base.body).toMatchObject({ networkFeeAsset: "ETH", totalFee: 10_000, netAmount: 990_000 })
  })

  it("refuses what cannot be withdrawn: a fiat account, another currency, a network that does not carry it", async () => {
    const body = await request()
    const fiat = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", {
      ...body,
      internalAccountId: wallets.get("usd")
    })
    expect(fiat).toMatchObject({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "account_not_crypto", field: "internalAccountId" }
    })
    const other = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", { ...body, currency: "USDT" })
    expect(other).toMatchObject({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "currency_mismatch", accountCurrency: "USDC" }
    })
    const tron = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", { ...body, cryptoNetwork: "TRON" })
    expect(tron).toMatchObject({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "network_does_not_carry_currency", field: "cryptoNetwork", cryptoNetwork: "TRON" }
    })
  })

  it("refuses an amount that does not cover the fee, an address of another network, an unknown network", async () => {
    const body = await request()
    const small = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", {
      ...body,
      cryptoNetwork: "ETHEREUM",
      destinationAddress: evm
    })
    expect(small).toEqual({
      status: 400,
      code: "INVALID_AMOUNT",
      details: { rule: "amount_below_fee", amount: 1_000_000, totalFee: 1_000_000 }
    })
    const address = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", { ...body, destinationAddress: evm })
    expect(address).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(address.details)).toEqual(["destinationAddress"])
    const network = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", {
      ...body,
      cryptoNetwork: "DOGE",
      amount: 0
    })
    expect(network).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(network.details).sort()).toEqual(["amount", "cryptoNetwork"])
  })

  it("answers 404 for an account of no platform or of another, 400 for a malformed id", async () => {
    const body = await request()
    const unknown = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", {
      ...body,
      internalAccountId: "InternalAccount:00000000-0000-4000-8000-000000000000"
    })
    expect(unknown).toMatchObject({ status: 404, code: "NOT_FOUND" })
    const foreign = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", body, api.otherPlatformBasic)
    expect(foreign).toMatchObject({ status: 404, code: "NOT_FOUND", details: { accountId: body.internalAccountId } })
    const malformed = await t().refusal("POST", "/crypto/estimate-withdrawal-fee", {
      ...body,
      internalAccountId: "nope"
    })
    expect(malformed).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(malformed.details)).toEqual(["internalAccountId"])
  })
})
