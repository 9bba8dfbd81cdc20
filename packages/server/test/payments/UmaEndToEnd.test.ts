import { expect, it } from "vitest"
import { Platform } from "@payrail/core"
import { expectBalancedBooks } from "./LedgerChecks.js"
import { type PaymentPlatform, paymentConfig, usdAccount } from "./PaymentApp.js"
import { describeOnEveryStore } from "./OnEveryStore.js"

/*
 * Outgoing UMA payments through the HTTP API on every store: a receiver lookup, a quote naming it, its execution,
 * and the sandbox addresses' outcomes driven by the sandbox clock; addresses on the platform's own domain pay its
 * customers' deposit accounts. The ledger balances after each.
 */

/** The fields of a lookup and of UMA quotes and transactions these tests read. */
interface Lookup {
  readonly lookupId: string
  readonly receiverUmaAddress?: string
  readonly accountId?: string
  readonly supportedCurrencies: ReadonlyArray<{
    readonly currency: { readonly code: string }
    readonly estimatedExchangeRate: number
    readonly min: number
    readonly max: number
  }>
  readonly requiredPayerDataFields: ReadonlyArray<{ readonly name: string; readonly mandatory: boolean }>
}

const domain = "sandbox.uma.money"

const destinationOf = (quote: object): unknown => (quote as { readonly destination?: unknown }).destination

describeOnEveryStore("outgoing UMA payments", "uma_payments", {}, (app) => {
  const lookup = async (platform: PaymentPlatform, address: string, query = "") => {
    const answer = await platform.call("GET", `/receiver/uma/${encodeURIComponent(address)}${query}`)
    expect(answer.status).toBe(200)
    return answer.body as unknown as Lookup
  }

  const umaQuote = (
    platform: PaymentPlatform,
    source: string,
    umaAddress: string,
    lookupId: string,
    amount: number,
    extra: Record<string, unknown> = {}
  ) =>
    platform.call("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: source },
      destination: { destinationType: "UMA_ADDRESS", umaAddress },
      lookupId,
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: amount,
      ...extra
    })

  it("looks up sandbox addresses in every written form, in the reference's shape", async () => {
    const platform = await app.newPlatform()
    const mxn = await lookup(platform, `$success.mxn@${domain}`)
    expect(mxn).toMatchObject({
      receiverUmaAddress: `$success.mxn@${domain}`,
      supportedCurrencies: [{ currency: { code: "MXN", decimals: 2 }, min: 1, max: 10_000_000_000 }],
      requiredPayerDataFields: [{ name: "FULL_NAME", mandatory: false }]
    })
    expect(mxn.lookupId).toMatch(/^Lookup:[0-9a-f-]{36}$/)
    expect(mxn.supportedCurrencies[0]!.estimatedExchangeRate).toBeGreaterThan(0)
    expect(mxn).not.toHaveProperty("accountId")
    // Without the `$`, in capitals, on the spec example's domain: one stored form.
    const bare = await lookup(platform, "Success.EUR@Sandbox.Grid.Uma.Money")
    expect(bare.receiverUmaAddress).toBe("$success.eur@sandbox.grid.uma.money")
    expect(bare.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["EUR"])
    // Another domain: a simulated counterparty that accepts USD.
    const elsewhere = await lookup(platform, "$bob@wallet.example", "?senderUmaAddress=%24me%40wallet.example")
    expect(elsewhere.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["USD"])
    expect(elsewhere.supportedCurrencies[0]!.estimatedExchangeRate).toBe(1)
  })

  it("pays sandbox addresses same- and cross-currency: success completes, the ledger balances", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Sender", 1_000_000)

    const mxn = await lookup(platform, `$success.mxn@${domain}`, `?customerId=${alice.id}`)
    const cross = await umaQuote(platform, alice.accounts.USD!, `$success.mxn@${domain}`, mxn.lookupId, 10_000)
    expect(cross.status).toBe(201)
    expect(cross.body).toMatchObject({
      status: "PENDING",
      sendingCurrency: { code: "USD" },
      receivingCurrency: { code: "MXN" },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: `$success.mxn@${domain}`, currency: "MXN" },
      lookupId: mxn.lookupId
    })
    // UMA is an instant rail: the quote lives 5 minutes.
    expect(Date.parse(cross.body.expiresAt) - Date.parse(cross.body.createdAt)).toBe(300_000)

    const usd = await lookup(platform, `success.usd@${domain}`)
    const same = await umaQuote(platform, alice.accounts.USD!, `$success.usd@${domain}`, usd.lookupId, 2_500, {
      senderCustomerInfo: { FULL_NAME: "Alice Sender" },
      immediatelyExecute: true
    })
    expect(same.status).toBe(201)
    expect(same.body).toMatchObject({ status: "PROCESSING", totalReceivingAmount: 2_500 })

    const executed = await platform.call("POST", `/quotes/${cross.body.id}/execute`)
    expect(executed.status).toBe(200)
    expect(executed.body.status).toBe("PROCESSING")
    expect((await platform.balanceOf(alice.accounts.USD!)).available).toBe(
      1_000_000 - cross.body.totalSendingAmount - 2_500
    )
    await app.settle()
    for (const quote of [cross.body, same.body]) {
      const transaction = await platform.transactionOf(quote.transactionId)
      expect(transaction).toMatchObject({
        status: "COMPLETED",
        type: "OUTGOING",
        direction: "DEBIT",
        destination: {
          destinationType: "UMA_ADDRESS",
          umaAddress: quote === cross.body ? `$success.mxn@${domain}` : `$success.usd@${domain}`
        },
        paymentRail: "UMA"
      })
      expect((await platform.call("GET", `/quotes/${quote.id}`)).body.status).toBe("COMPLETED")
    }
    const listed = await platform.call(
      "GET",
      `/transactions?receiverAccountIdentifier=${encodeURIComponent(`$success.mxn@${domain}`)}`
    )
    expect(listed.body.data.map((transaction) => transaction.id)).toEqual([cross.body.transactionId])
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({
      available: 1_000_000 - cross.body.totalSendingAmount - 2_500,
      total: 1_000_000 - cross.body.totalSendingAmount - 2_500
    })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!])
    expect(app.jobs.failures).toEqual([])
  })

  it("keeps a long-pending address PROCESSING for an hour of the sandbox clock, then completes it", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Patient", 50_000)
    const found = await lookup(platform, `$pending.long.usd@${domain}`)
    const quoted = await umaQuote(platform, alice.accounts.USD!, `$pending.long.usd@${domain}`, found.lookupId, 5_000, {
      immediatelyExecute: true
    })
    expect(quoted.status).toBe(201)
    await app.settle()
    expect((await platform.transactionOf(quoted.body.transactionId)).status).toBe("PROCESSING")
    await platform.advance(3_540)
    await app.settle()
    expect((await platform.transactionOf(quoted.body.transactionId)).status).toBe("PROCESSING")
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 45_000, total: 50_000 })
    await platform.advance(61)
    await app.settle()
    expect(await platform.transactionOf(quoted.body.transactionId)).toMatchObject({ status: "COMPLETED" })
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 45_000, total: 45_000 })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!])
  })

  it("fails a compliance-failure address with COMPLIANCE_REJECTED and releases the reservation", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Refused", 50_000)
    const found = await lookup(platform, `$fail.compliance.usd@${domain}`)
    const quoted = await umaQuote(
      platform,
      alice.accounts.EUR!,
      `$fail.compliance.usd@${domain}`,
      found.lookupId,
      1_000
    )
    // The EUR account is empty: the quote prices, its execution is refused.
    expect(quoted.status).toBe(201)
    expect((await platform.call("POST", `/quotes/${quoted.body.id}/execute`)).body.code).toBe("INSUFFICIENT_FUNDS")
    const paid = await umaQuote(
      platform,
      alice.accounts.USD!,
      `$fail.compliance.usd@${domain}`,
      found.lookupId,
      7_000,
      {
        immediatelyExecute: true
      }
    )
    expect(paid.body.status).toBe("PROCESSING")
    await app.settle()
    expect(await platform.transactionOf(paid.body.transactionId)).toMatchObject({
      status: "FAILED",
      failureReason: "COMPLIANCE_REJECTED"
    })
    expect((await platform.call("GET", `/quotes/${paid.body.id}`)).body.status).toBe("FAILED")
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 50_000, total: 50_000 })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!, alice.accounts.EUR!])
  })

  it("pays an address of the platform's own domain into the customer's deposit account", async () => {
    const platform = await app.newPlatform({
      config: new Platform.PlatformConfig({
        ...paymentConfig,
        umaDomain: "pay.example",
        supportedCurrencies: paymentConfig.supportedCurrencies.map(
          (entry) =>
            new Platform.SupportedCurrency({
              ...entry,
              requiredCounterpartyFields: entry.currencyCode === "EUR" ? [{ name: "FULL_NAME", mandatory: true }] : []
            })
        )
      })
    })
    const alice = await platform.newCustomer("Alice Payer")
    const bob = await platform.newCustomer("Bob Payee")
    await platform.fund(alice.accounts.USD!, 100_000)
    const bobAddress = String((await platform.call("GET", `/customers/${bob.id}`)).body["umaAddress" as "id"])
    expect(bobAddress).toMatch(/@pay\.example$/)

    const found = await lookup(platform, bobAddress.toUpperCase())
    expect(found.receiverUmaAddress).toBe(bobAddress)
    // In the platform's order of currencies; the embedded wallet (USDC) takes no UMA payments.
    expect(found.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["USD", "EUR", "MXN"])
    expect(found.requiredPayerDataFields).toEqual([{ name: "FULL_NAME", mandatory: true }])

    const refused = await umaQuote(platform, alice.accounts.USD!, bobAddress, found.lookupId, 1_000, {
      destination: { destinationType: "UMA_ADDRESS", umaAddress: bobAddress, currency: "EUR" }
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      code: "MISSING_MANDATORY_USER_INFO",
      details: { missingFields: ["FULL_NAME"] }
    })

    const quoted = await umaQuote(platform, alice.accounts.USD!, bobAddress, found.lookupId, 10_000, {
      destination: { destinationType: "UMA_ADDRESS", umaAddress: bobAddress, currency: "EUR" },
      senderCustomerInfo: { FULL_NAME: "Alice Payer" },
      immediatelyExecute: true
    })
    expect(quoted.status).toBe(201)
    expect(destinationOf(quoted.body)).toEqual({
      destinationType: "UMA_ADDRESS",
      umaAddress: bobAddress,
      currency: "EUR",
      accountId: bob.accounts.EUR
    })
    await app.settle()
    expect(await platform.transactionOf(quoted.body.transactionId)).toMatchObject({
      status: "COMPLETED",
      destination: { destinationType: "UMA_ADDRESS", umaAddress: bobAddress, currency: "EUR" }
    })
    expect((await platform.balanceOf(bob.accounts.EUR!)).available).toBe(quoted.body.totalReceivingAmount)

    // Paying one's own address is a self-payment.
    const own = await lookup(platform, bobAddress)
    const self = await umaQuote(platform, bob.accounts.EUR!, bobAddress, own.lookupId, 100, {
      senderCustomerInfo: { FULL_NAME: "Bob Payee" }
    })
    expect([self.status, self.body.code]).toEqual([400, "SELF_PAYMENT"])

    // A default UMA deposit account takes every UMA payment, in its currency, paid out on its rail.
    const carol = await platform.newCustomer("Carol Payee")
    const deposit = await platform.call("POST", "/customers/external-accounts", {
      customerId: carol.id,
      currency: "USD",
      defaultUmaDepositAccount: true,
      accountInfo: { ...usdAccount("5566778001"), paymentRails: ["RTP"] }
    })
    expect(deposit.status).toBe(201)
    const carolAddress = String((await platform.call("GET", `/customers/${carol.id}`)).body["umaAddress" as "id"])
    const toCarol = await lookup(platform, carolAddress)
    expect(toCarol.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["USD"])
    expect(toCarol.requiredPayerDataFields).toEqual([])
    const payout = await umaQuote(platform, alice.accounts.USD!, carolAddress, toCarol.lookupId, 3_000, {
      immediatelyExecute: true
    })
    expect(payout.status).toBe(201)
    expect(destinationOf(payout.body)).toMatchObject({ accountId: deposit.body.id, currency: "USD" })
    await app.settle()
    expect(await platform.transactionOf(payout.body.transactionId)).toMatchObject({
      status: "COMPLETED",
      paymentRail: "RTP"
    })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!, bob.accounts.EUR!])
    expect(app.jobs.failures).toEqual([])
  })

  it("looks up an external account and checks the lookup a quote to it names", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Lookup", 10_000)
    const external = await platform.externalUsd(alice.id, "4433221001")
    const answer = await platform.call("GET", `/receiver/external-account/${external}`)
    expect(answer.status).toBe(200)
    const found = answer.body as unknown as Lookup
    expect(found).toMatchObject({ accountId: external, requiredPayerDataFields: [] })
    expect(found.supportedCurrencies.map((entry) => entry.currency.code)).toEqual(["USD"])
    expect(found).not.toHaveProperty("receiverUmaAddress")
    const quoted = await platform.quote(alice.accounts.USD!, external, 1_000, { lookupId: found.lookupId })
    expect(quoted.status).toBe(201)
    expect(quoted.body).toMatchObject({ lookupId: found.lookupId })
    const other = await lookup(platform, `$success.usd@${domain}`)
    const mismatched = await platform.quote(alice.accounts.USD!, external, 1_000, { lookupId: other.lookupId })
    expect(mismatched.status).toBe(400)
    expect(mismatched.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "lookupId" }] } })
  })
})
