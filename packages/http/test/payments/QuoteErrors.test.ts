import { expect, it } from "vitest"
import { Platform, Platforms } from "@payrail/core"
import { AccountInfoExamples } from "@payrail/storage-testkit"
import { describeOverHttp } from "../support/OverHttp.js"
import { quoteBody, requestsOf } from "../support/Requests.js"

const currencies = (limits: Partial<Record<string, readonly [number, number]>> = {}) =>
  ["USD", "EUR", "MXN", "USDC"].map((currencyCode) => {
    const [minAmount, maxAmount] = limits[currencyCode] ?? [1, 10_000_000_000]
    return { currencyCode, minAmount, maxAmount }
  })

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  supportedCurrencies: currencies().map((currency) => new Platform.SupportedCurrency(currency))
})

/*
 * The refusals of quotes over HTTP (docs/payments.md, docs/fx-and-fees.md), each with its status and body, on every
 * storage adapter; every answer is checked against the OpenAPI document by the harness.
 */
describeOverHttp("quote refusals over HTTP", { config }, (api) => {
  const { send, refusal, fieldsOf, newCustomer } = requestsOf(api)
  const external = async (customerId: string, currency: string, accountInfo: unknown, extra = {}) => {
    const created = await send("POST", "/customers/external-accounts", {
      customerId,
      currency,
      accountInfo,
      ...extra
    })
    expect(created.status).toBe(201)
    return created.body as { readonly id: string; readonly status: string }
  }
  const patchConfig = async (body: unknown) => expect((await send("PATCH", "/config", body)).status).toBe(200)

  it("names every invalid field of a quote request with INVALID_INPUT", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    const body = quoteBody(alice.accounts.USD!, bob.accounts.USD!, 100)
    const invalid = async (request: unknown) => {
      const { status, code, details } = await refusal("POST", "/quotes", request)
      expect({ status, code }).toEqual({ status: 400, code: "INVALID_INPUT" })
      return fieldsOf(details)
    }
    expect(await invalid({ ...body, lockedCurrencyAmount: 0 })).toEqual(["lockedCurrencyAmount"])
    expect(await invalid({ ...body, lockedCurrencyAmount: 9_000_000_000_000_001 })).toEqual(["lockedCurrencyAmount"])
    expect(await invalid({ ...body, lockedCurrencyAmount: 10.5 })).toEqual(["lockedCurrencyAmount"])
    expect(await invalid({ ...body, remittanceInformation: "x".repeat(81) })).toEqual(["remittanceInformation"])
    expect(await invalid({ ...body, tip: 5 })).toEqual(["tip"])
    expect(await invalid({ ...body, source: { ...body.source, note: "x" } })).toEqual(["source.note"])
    expect(
      (
        await invalid({
          ...body,
          lockedCurrencyAmount: -1,
          lockedCurrencySide: "BOTH",
          destination: { destinationType: "ACCOUNT", accountId: "Customer:nope" },
          unknown: true
        })
      ).sort()
    ).toEqual(["destination.accountId", "lockedCurrencyAmount", "lockedCurrencySide", "unknown"])
    // The bounds themselves decode: 9e15 is priced (and is above the platform's limit), 80 characters are taken.
    expect(await refusal("POST", "/quotes", { ...body, lockedCurrencyAmount: 9_000_000_000_000_000 })).toMatchObject({
      status: 400,
      code: "TRANSACTION_SIZE_LIMIT_EXCEEDED"
    })
    const accepted = await send("POST", "/quotes", { ...body, remittanceInformation: "x".repeat(80) })
    expect(accepted.status).toBe(201)
    expect(accepted.body.remittanceInformation).toBe("x".repeat(80))
    expect(await refusal("GET", "/quotes/Quote:not-a-uuid")).toMatchObject({ status: 400, code: "INVALID_INPUT" })
  })

  it("refuses totals outside the sending currency's limits in the platform's config, fees included", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    await patchConfig({ supportedCurrencies: currencies({ USD: [500, 100_000] }) })
    try {
      const quote = (source: string, destination: string, amount: number, side = "SENDING") =>
        refusal("POST", "/quotes", quoteBody(source, destination, amount, { lockedCurrencySide: side }))
      expect(await quote(alice.accounts.USD!, bob.accounts.USD!, 499)).toEqual({
        status: 400,
        code: "AMOUNT_OUT_OF_RANGE",
        details: { rule: "below_minimum_amount", currency: "USD", minAmount: 500 }
      })
      expect(await quote(alice.accounts.USD!, bob.accounts.USD!, 100_001)).toEqual({
        status: 400,
        code: "TRANSACTION_SIZE_LIMIT_EXCEEDED",
        details: { rule: "above_maximum_amount", currency: "USD", maxAmount: 100_000 }
      })
      expect((await quote(alice.accounts.USD!, bob.accounts.USD!, 500)).status).toBe(201)
      expect((await quote(alice.accounts.USD!, bob.accounts.USD!, 100_000)).status).toBe(201)
      // RECEIVING locked: the total sending amount with its fees is what the limits bound.
      expect(await quote(alice.accounts.USD!, bob.accounts.EUR!, 90_000, "RECEIVING")).toMatchObject({
        status: 400,
        code: "TRANSACTION_SIZE_LIMIT_EXCEEDED"
      })
      expect(await quote(alice.accounts.USD!, bob.accounts.EUR!, 400, "RECEIVING")).toMatchObject({
        status: 400,
        code: "AMOUNT_OUT_OF_RANGE"
      })
      // The receiving currency's limits do not bound what is received.
      expect((await quote(alice.accounts.EUR!, bob.accounts.USD!, 200_000, "RECEIVING")).status).toBe(201)
      expect((await quote(alice.accounts.EUR!, bob.accounts.USD!, 100, "RECEIVING")).status).toBe(201)
    } finally {
      await patchConfig({ supportedCurrencies: currencies() })
    }
  })

  it("refuses a currency the platform does not support with INVALID_CURRENCY", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    const pounds = await external(alice.id, "GBP", AccountInfoExamples.exampleOf("GBP_ACCOUNT"))
    expect(await refusal("POST", "/quotes", quoteBody(alice.accounts.USD!, pounds.id, 1_000))).toEqual({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "currency_not_supported_by_platform", currency: "GBP" }
    })
    // A currency dropped from the config after its accounts were opened can no longer be paid or paid from.
    await patchConfig({ supportedCurrencies: currencies().filter((currency) => currency.currencyCode !== "MXN") })
    try {
      for (const [source, destination] of [
        [alice.accounts.USD!, bob.accounts.MXN!],
        [bob.accounts.MXN!, alice.accounts.USD!]
      ] as const) {
        expect(await refusal("POST", "/quotes", quoteBody(source, destination, 1_000))).toEqual({
          status: 400,
          code: "INVALID_CURRENCY",
          details: { rule: "currency_not_supported_by_platform", currency: "MXN" }
        })
      }
    } finally {
      await patchConfig({ supportedCurrencies: currencies() })
    }
  })

  it("refuses an amount that receives nothing with INVALID_AMOUNT", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    // One cent does not buy a euro cent with Payrail's fee; ten centavos are half a US cent.
    for (const [source, destination, amount, sending, receiving] of [
      [alice.accounts.USD!, bob.accounts.EUR!, 1, "USD", "EUR"],
      [alice.accounts.MXN!, bob.accounts.USD!, 10, "MXN", "USD"]
    ] as const) {
      expect(await refusal("POST", "/quotes", quoteBody(source, destination, amount))).toEqual({
        status: 400,
        code: "INVALID_AMOUNT",
        details: { rule: "receives_nothing", sendingCurrency: sending, receivingCurrency: receiving }
      })
    }
  })

  it("refuses more than EUR 1,000 to a first-party self-custody wallet until its ownership is verified", async () => {
    await patchConfig({ subjectToCounterpartyRules: true })
    try {
      const alice = await newCustomer()
      const wallet = { accountType: "BASE_WALLET", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }
      const mine = await external(alice.id, "USDC", wallet, { ownershipType: "FIRST_PARTY" })
      expect(mine.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
      // Below the travel-rule threshold a transfer is allowed: USD 10 is far below EUR 1,000.
      expect((await send("POST", "/quotes", quoteBody(alice.accounts.USD!, mine.id, 1_000))).status).toBe(201)
      // USD 2,000 is worth more than EUR 1,000 at any plausible rate.
      const payMine = () => refusal("POST", "/quotes", quoteBody(alice.accounts.USD!, mine.id, 200_000))
      expect(await payMine()).toEqual({
        status: 400,
        code: "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED",
        details: { accountId: mine.id, status: "PENDING_OWNERSHIP_VERIFICATION" }
      })
      const path = `/customers/external-accounts/${mine.id}`
      expect((await send("POST", `${path}/challenge`, { method: "WALLET_SIGNATURE" })).status).toBe(201)
      expect((await send("POST", `${path}/verify`, { signature: "0xsig002" })).body.status).toBe("UNVERIFIED")
      expect(await payMine()).toMatchObject({
        code: "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED",
        details: { status: "UNVERIFIED" }
      })
      expect((await send("POST", `${path}/challenge`, { method: "WALLET_SIGNATURE" })).status).toBe(201)
      expect((await send("POST", `${path}/verify`, { signature: "0xsig" })).body.status).toBe("ACTIVE")
      const paid = await send("POST", "/quotes", quoteBody(alice.accounts.USD!, mine.id, 200_000))
      expect(paid.status).toBe(201)
      // A wallet destination's quote lives 2 minutes.
      expect(Date.parse(paid.body.expiresAt) - Date.parse(paid.body.createdAt)).toBe(120_000)
      // Someone else's wallet, with its owner named, is active at once.
      const theirs = await external(
        alice.id,
        "USDC",
        {
          accountType: "BASE_WALLET",
          address: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359",
          beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Sam Other", countryOfResidence: "US" }
        },
        { ownershipType: "THIRD_PARTY" }
      )
      expect(theirs.status).toBe("ACTIVE")
      expect((await send("POST", "/quotes", quoteBody(alice.accounts.USD!, theirs.id, 1_000))).status).toBe(201)
    } finally {
      await patchConfig({ subjectToCounterpartyRules: false })
    }
  })

  it("refuses a payment from an account to itself with SELF_PAYMENT", async () => {
    const alice = await newCustomer()
    const bank = await external(alice.id, "USD", AccountInfoExamples.exampleOf("USD_ACCOUNT"))
    for (const accountId of [alice.accounts.USD!, bank.id]) {
      expect(await refusal("POST", "/quotes", quoteBody(accountId, accountId, 1_000))).toEqual({
        status: 400,
        code: "SELF_PAYMENT",
        details: { accountId }
      })
    }
  })

  it("refuses INSUFFICIENT_FUNDS naming the source account, and changes nothing", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    expect((await send("POST", `/sandbox/internal-accounts/${alice.accounts.USD}/fund`, { amount: 100 })).status).toBe(
      200
    )
    const expected = {
      status: 400,
      code: "INSUFFICIENT_FUNDS",
      details: { rule: "exceeds_available_balance", accountId: alice.accounts.USD }
    }
    const quoted = await send("POST", "/quotes", quoteBody(alice.accounts.USD!, bob.accounts.USD!, 101))
    expect(await refusal("POST", `/quotes/${quoted.body.id}/execute`)).toEqual(expected)
    // With immediatelyExecute the quote itself is refused, and nothing of it is kept.
    const before = (await send("GET", `/quotes?customerId=${alice.id}&limit=100`)).body.data.length
    expect(
      await refusal(
        "POST",
        "/quotes",
        quoteBody(alice.accounts.USD!, bob.accounts.USD!, 101, { immediatelyExecute: true })
      )
    ).toEqual(expected)
    expect((await send("GET", `/quotes?customerId=${alice.id}&limit=100`)).body.data).toHaveLength(before)
    expect((await send("GET", `/internal-accounts/${alice.accounts.USD}`)).body.balance.amount).toBe(100)
  })

  it("needs TRANSACT to create or execute a quote; VIEW reads it", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    const viewer = await api.tokenWith(["VIEW"])
    const body = quoteBody(alice.accounts.USD!, bob.accounts.USD!, 100)
    const forbidden = {
      status: 403,
      code: "FORBIDDEN",
      details: { rule: "requires_permission", requiredPermission: "TRANSACT" }
    }
    expect(await refusal("POST", "/quotes", body, viewer)).toEqual(forbidden)
    const quoted = await send("POST", "/quotes", body)
    expect(await refusal("POST", `/quotes/${quoted.body.id}/execute`, undefined, viewer)).toEqual(forbidden)
    expect((await send("GET", `/quotes/${quoted.body.id}`, undefined, viewer)).body.status).toBe("PENDING")
    expect((await send("GET", `/transactions/${quoted.body.transactionId}`, undefined, viewer)).status).toBe(200)
  })

  it("answers 404 for another platform's accounts, quotes and transactions, never a hint that they exist", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    const bank = await external(alice.id, "USD", AccountInfoExamples.exampleOf("USD_ACCOUNT"))
    const quoted = await send("POST", "/quotes", quoteBody(alice.accounts.USD!, bob.accounts.USD!, 100))
    const other = api.otherPlatformBasic
    const stranger = await newCustomer({ auth: other })
    expect(await refusal("GET", `/quotes/${quoted.body.id}`, undefined, other)).toEqual({
      status: 404,
      code: "QUOTE_NOT_FOUND",
      details: { quoteId: quoted.body.id }
    })
    expect(await refusal("POST", `/quotes/${quoted.body.id}/execute`, undefined, other)).toEqual({
      status: 404,
      code: "QUOTE_NOT_FOUND",
      details: { quoteId: quoted.body.id }
    })
    expect(await refusal("GET", `/transactions/${quoted.body.transactionId}`, undefined, other)).toEqual({
      status: 404,
      code: "TRANSACTION_NOT_FOUND",
      details: { transactionId: quoted.body.transactionId }
    })
    for (const [source, destination, missing] of [
      [alice.accounts.USD!, stranger.accounts.USD!, alice.accounts.USD!],
      [stranger.accounts.USD!, bob.accounts.USD!, bob.accounts.USD!],
      [stranger.accounts.USD!, bank.id, bank.id]
    ] as const) {
      expect(await refusal("POST", "/quotes", quoteBody(source, destination, 100), other)).toEqual({
        status: 404,
        code: "NOT_FOUND",
        details: { accountId: missing }
      })
    }
    expect((await send("GET", `/quotes/${quoted.body.id}`)).body.status).toBe("PENDING")
  })
})
