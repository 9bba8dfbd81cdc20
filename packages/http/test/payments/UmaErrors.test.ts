import { expect, it } from "vitest"
import { Platform, Platforms } from "@payrail/core"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

const sandbox = "sandbox.uma.money"

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  umaDomain: "pay.example",
  supportedCurrencies: ["USD", "EUR", "MXN", "USDC"].map(
    (currencyCode) => new Platform.SupportedCurrency({ currencyCode, minAmount: 1, maxAmount: 10_000_000_000 })
  )
})

/*
 * The refusals of receiver lookups and UMA quotes over HTTP (docs/payments.md, "UMA"), each with its status and
 * body, on every storage adapter; every answer is checked against the OpenAPI document by the harness.
 */
describeOverHttp("UMA refusals over HTTP", { config }, (api) => {
  const { send, refusal, fieldsOf, newCustomer } = requestsOf(api)
  const lookup = async (address: string, query = "", auth?: string) => {
    const found = await send("GET", `/receiver/uma/${encodeURIComponent(address)}${query}`, undefined, auth)
    expect(found.status).toBe(200)
    return found.body.lookupId as string
  }
  const umaQuote = (source: string, umaAddress: string, extra: Record<string, unknown> = {}) => ({
    source: { sourceType: "ACCOUNT", accountId: source },
    destination: { destinationType: "UMA_ADDRESS", umaAddress },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_000,
    ...extra
  })

  it("refuses malformed UMA addresses with INVALID_UMA_ADDRESS, naming where they were", async () => {
    for (const address of ["$", "$alice", "alice@", "$al ice@pay.example", "$alice@localhost", "$a@b@pay.example"]) {
      expect(await refusal("GET", `/receiver/uma/${encodeURIComponent(address)}`)).toEqual({
        status: 400,
        code: "INVALID_UMA_ADDRESS",
        details: { field: "receiverUmaAddress" }
      })
    }
    expect(
      await refusal("GET", `/receiver/uma/${encodeURIComponent(`$success.usd@${sandbox}`)}?senderUmaAddress=me`)
    ).toEqual({ status: 400, code: "INVALID_UMA_ADDRESS", details: { field: "senderUmaAddress" } })
    const alice = await newCustomer()
    const lookupId = await lookup(`$success.usd@${sandbox}`)
    expect(await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, "not an address", { lookupId }))).toEqual({
      status: 400,
      code: "INVALID_UMA_ADDRESS",
      details: { field: "destination.umaAddress" }
    })
  })

  it("answers UMA_NOT_FOUND for no receiver, and the customer and account 404s of the lookups", async () => {
    expect(await refusal("GET", `/receiver/uma/${encodeURIComponent("$nobody@pay.example")}`)).toEqual({
      status: 404,
      code: "UMA_NOT_FOUND",
      details: { receiverUmaAddress: "$nobody@pay.example" }
    })
    expect(await refusal("GET", `/receiver/uma/${encodeURIComponent(`$unknown.usd@${sandbox}`)}`)).toMatchObject({
      status: 404,
      code: "UMA_NOT_FOUND"
    })
    const stranger = "Customer:00000000-0000-4000-8000-000000000000"
    expect(
      await refusal("GET", `/receiver/uma/${encodeURIComponent(`$success.usd@${sandbox}`)}?customerId=${stranger}`)
    ).toEqual({ status: 404, code: "USER_NOT_FOUND", details: { customerId: stranger } })
    const account = "ExternalAccount:00000000-0000-4000-8000-000000000000"
    expect(await refusal("GET", `/receiver/external-account/${account}`)).toEqual({
      status: 404,
      code: "NOT_FOUND",
      details: { accountId: account }
    })
    const malformed = await refusal("GET", "/receiver/external-account/ExternalAccount:nope")
    expect([malformed.status, malformed.code, fieldsOf(malformed.details)]).toEqual([
      400,
      "INVALID_INPUT",
      ["accountId"]
    ])
    // A customer of another platform is not found there either.
    const other = await send(
      "GET",
      `/receiver/uma/${encodeURIComponent(`$success.usd@${sandbox}`)}`,
      undefined,
      api.otherPlatformBasic
    )
    expect(other.status).toBe(200)
  })

  it("needs a usable lookup of the same receiver and sender for an UMA quote", async () => {
    const alice = await newCustomer()
    const bob = await newCustomer()
    await send("POST", `/sandbox/internal-accounts/${alice.accounts.USD!}/fund`, { amount: 100_000 })
    const address = `$success.usd@${sandbox}`

    const missing = await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address))
    expect([missing.status, missing.code, fieldsOf(missing.details)]).toEqual([400, "INVALID_INPUT", ["lookupId"]])
    const malformed = await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId: "Lookup:x" }))
    expect([malformed.status, malformed.code, fieldsOf(malformed.details)]).toEqual([
      400,
      "INVALID_INPUT",
      ["lookupId"]
    ])
    const unknown = "Lookup:00000000-0000-4000-8000-000000000000"
    expect(await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId: unknown }))).toEqual({
      status: 404,
      code: "LOOKUP_REQUEST_NOT_FOUND",
      details: { lookupId: unknown }
    })
    // Another platform's lookup is not found.
    const theirs = await lookup(address, "", api.otherPlatformBasic)
    expect(
      await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId: theirs }))
    ).toMatchObject({
      status: 404,
      code: "LOOKUP_REQUEST_NOT_FOUND"
    })
    // A lookup of another receiver, or made for another customer.
    const euros = await lookup(`$success.eur@${sandbox}`)
    const mismatched = await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId: euros }))
    expect([mismatched.status, mismatched.code, fieldsOf(mismatched.details)]).toEqual([
      400,
      "INVALID_INPUT",
      ["lookupId"]
    ])
    const bobs = await lookup(address, `?customerId=${bob.id}`)
    const foreign = await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId: bobs }))
    expect([foreign.status, foreign.code, fieldsOf(foreign.details)]).toEqual([400, "INVALID_INPUT", ["lookupId"]])
    // A currency the receiver does not take.
    const lookupId = await lookup(address)
    expect(
      await refusal(
        "POST",
        "/quotes",
        umaQuote(alice.accounts.USD!, address, {
          lookupId,
          destination: { destinationType: "UMA_ADDRESS", umaAddress: address, currency: "EUR" }
        })
      )
    ).toEqual({
      status: 400,
      code: "INVALID_CURRENCY",
      details: { rule: "currency_not_accepted_by_receiver", currency: "EUR" }
    })
    expect((await send("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId }))).status).toBe(201)
    // Fifteen minutes on the sandbox clock later, the lookup has expired.
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 900 })).status).toBe(200)
    const expired = await refusal("POST", "/quotes", umaQuote(alice.accounts.USD!, address, { lookupId }))
    expect([expired.status, expired.code, fieldsOf(expired.details)]).toEqual([400, "INVALID_INPUT", ["lookupId"]])
  })

  it("refuses missing mandatory payer data and a customer paying its own address", async () => {
    const alice = await newCustomer()
    await send("PATCH", "/config", {
      supportedCurrencies: config.supportedCurrencies.map((entry) => ({
        currencyCode: entry.currencyCode,
        minAmount: entry.minAmount,
        maxAmount: entry.maxAmount,
        requiredCounterpartyFields:
          entry.currencyCode === "USD"
            ? [
                { name: "FULL_NAME", mandatory: true },
                { name: "BIRTH_DATE", mandatory: true },
                { name: "NATIONALITY", mandatory: false }
              ]
            : []
      }))
    })
    try {
      const bob = await newCustomer()
      const lookupId = await lookup(bob.umaAddress)
      for (const info of [undefined, {}, { FULL_NAME: " ", BIRTH_DATE: null }]) {
        expect(
          await refusal(
            "POST",
            "/quotes",
            umaQuote(alice.accounts.USD!, bob.umaAddress, {
              lookupId,
              ...(info === undefined ? {} : { senderCustomerInfo: info })
            })
          )
        ).toEqual({
          status: 400,
          code: "MISSING_MANDATORY_USER_INFO",
          details: { lookupId, missingFields: ["FULL_NAME", "BIRTH_DATE"] }
        })
      }
      const complete = { FULL_NAME: "Alice Lee", BIRTH_DATE: "1990-01-01" }
      expect(
        (
          await send(
            "POST",
            "/quotes",
            umaQuote(alice.accounts.USD!, bob.umaAddress, { lookupId, senderCustomerInfo: complete })
          )
        ).status
      ).toBe(201)
      expect(
        await refusal(
          "POST",
          "/quotes",
          umaQuote(bob.accounts.USD!, bob.umaAddress, { lookupId, senderCustomerInfo: complete })
        )
      ).toEqual({ status: 400, code: "SELF_PAYMENT", details: { accountId: bob.accounts.USD! } })
    } finally {
      await send("PATCH", "/config", {
        supportedCurrencies: config.supportedCurrencies.map(({ currencyCode, minAmount, maxAmount }) => ({
          currencyCode,
          minAmount,
          maxAmount
        }))
      })
    }
  })

  it("needs VIEW to look up a receiver", async () => {
    const transactOnly = await api.tokenWith(["TRANSACT"])
    const address = encodeURIComponent(`$success.usd@${sandbox}`)
    expect(await refusal("GET", `/receiver/uma/${address}`, undefined, transactOnly)).toMatchObject({
      status: 403,
      code: "FORBIDDEN"
    })
    expect((await send("GET", `/receiver/uma/${address}`, undefined, await api.tokenWith(["VIEW"]))).status).toBe(200)
  })
})
