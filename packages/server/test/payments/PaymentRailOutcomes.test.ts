import { expect, it } from "vitest"
import { expectBalancedBooks } from "./LedgerChecks.js"
import { describeOnEveryStore } from "./OnEveryStore.js"

/*
 * Rail outcomes the sandbox decides by suffix and by time, with the job worker run only when a test lets the jobs
 * settle: pulls from an external USD account (the transfer table), and a payout returned before any check saw it.
 */
describeOnEveryStore("rail outcomes", "payment_rails", {}, (app) => {
  it("pulls from external USD accounts by the transfer table, 005 pending 30 seconds then failed", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Puller")
    const sources = new Map<string, string>()
    const pull = async (suffix: string, destination = alice.accounts.USD!) => {
      const source = sources.get(suffix) ?? (await platform.externalUsd(alice.id, `7700330${suffix}`))
      sources.set(suffix, source)
      const quoted = await platform.quote(source, destination, 2_500, { immediatelyExecute: true })
      expect(quoted.status).toBe(201)
      expect(quoted.body.status).toBe("PROCESSING")
      // A pull pays an internal account: its quote lives 5 minutes, whatever the rail it pulls through.
      expect(Date.parse(quoted.body.expiresAt) - Date.parse(quoted.body.createdAt)).toBe(300_000)
      const transaction = await platform.transactionOf(quoted.body.transactionId)
      expect(transaction).toMatchObject({ type: "INCOMING", direction: "DEBIT", status: "PROCESSING" })
      return quoted.body
    }
    const collected = await pull("001")
    const broke = await pull("002")
    const closed = await pull("003")
    const rejected = await pull("004")
    const slow = await pull("005")
    const converted = await pull("001", alice.accounts.EUR!)
    await app.settle()
    const statusOf = async (transactionId: string) => {
      const transaction = await platform.transactionOf(transactionId)
      return { status: transaction.status, failureReason: transaction.failureReason }
    }
    expect(await statusOf(collected.transactionId)).toEqual({ status: "COMPLETED", failureReason: undefined })
    expect(await statusOf(converted.transactionId)).toEqual({ status: "COMPLETED", failureReason: undefined })
    expect(await statusOf(broke.transactionId)).toEqual({ status: "FAILED", failureReason: "INSUFFICIENT_FUNDS" })
    expect(await statusOf(closed.transactionId)).toEqual({ status: "FAILED", failureReason: "ACCOUNT_INVALID" })
    expect(await statusOf(rejected.transactionId)).toEqual({
      status: "FAILED",
      failureReason: "COUNTERPARTY_POST_TX_FAILED"
    })
    expect(await statusOf(slow.transactionId)).toEqual({ status: "PROCESSING", failureReason: undefined })
    // Twenty seconds on, it is still pending; past thirty it fails, and nothing of it reached the account.
    await platform.advance(20)
    await app.settle()
    expect((await statusOf(slow.transactionId)).status).toBe("PROCESSING")
    await platform.advance(11)
    await app.settle()
    expect(await statusOf(slow.transactionId)).toEqual({
      status: "FAILED",
      failureReason: "COUNTERPARTY_POST_TX_FAILED"
    })
    for (const quote of [collected, broke, closed, rejected, slow, converted]) {
      const transaction = await platform.transactionOf(quote.transactionId)
      expect((await platform.call("GET", `/quotes/${quote.id}`)).body.status).toBe(transaction.status)
    }
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 2_500, total: 2_500 })
    expect(converted.receivingCurrency.code).toBe("EUR")
    expect(await platform.balanceOf(alice.accounts.EUR!)).toEqual({
      available: converted.totalReceivingAmount,
      total: converted.totalReceivingAmount
    })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!, alice.accounts.EUR!], {
      systemCurrencies: ["USD", "EUR"]
    })
  })

  it("refuses a pull into an external account and from an account that cannot be pulled", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Refused Pull")
    const ach = await platform.externalUsd(alice.id, "7700331001")
    const other = await platform.externalUsd(alice.id, "7700331002")
    const wireOnly = await platform.call("POST", "/customers/external-accounts", {
      customerId: alice.id,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "7700331003",
        routingNumber: "021000021",
        paymentRails: ["WIRE"],
        beneficiary: {
          beneficiaryType: "INDIVIDUAL",
          fullName: "Kim Lee",
          birthDate: "1990-01-15",
          nationality: "US"
        }
      }
    })
    expect(wireOnly.status).toBe(201)
    const fieldOf = async (source: string, destination: string) => {
      const answer = await platform.quote(source, destination, 1_000)
      expect([answer.status, answer.body.code]).toEqual([400, "INVALID_INPUT"])
      return (answer.body.details["errors"] as ReadonlyArray<{ readonly field: string }>).map(({ field }) => field)
    }
    expect(await fieldOf(ach, other)).toEqual(["destination.accountId"])
    expect(await fieldOf(wireOnly.body.id, alice.accounts.USD!)).toEqual(["source.accountId"])
  })

  it("fails a payout that was returned before any check saw it delivered, and refunds the source", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Returned", 10_000)
    const payee = await platform.externalUsd(alice.id, "7700332005")
    const quoted = await platform.quote(alice.accounts.USD!, payee, 4_000, { immediatelyExecute: true })
    expect(quoted.body.status).toBe("PROCESSING")
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 6_000, total: 10_000 })
    // The clock passes the return (30 seconds) before the worker first asks the rail: a worker that was down.
    await platform.advance(60)
    await app.settle()
    expect(await platform.transactionOf(quoted.body.transactionId)).toMatchObject({
      status: "FAILED",
      failureReason: "PAYOUT_RETURNED",
      refund: { status: "COMPLETED", reason: "TRANSACTION_FAILED" }
    })
    expect((await platform.call("GET", `/quotes/${quoted.body.id}`)).body.status).toBe("FAILED")
    expect(await platform.balanceOf(alice.accounts.USD!)).toEqual({ available: 10_000, total: 10_000 })
    await expectBalancedBooks(app, platform, [alice.accounts.USD!], { systemCurrencies: ["USD", "EUR"] })
  })
})
