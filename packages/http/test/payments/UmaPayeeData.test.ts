import { Effect } from "effect"
import { expect, it } from "vitest"
import { Outbox } from "@payrail/core"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

/*
 * The payee data an UMA counterparty returns to the sender (its platform's `receiverCustomerInfo`), forwarded as the
 * reference does (docs/payments.md, "UMA"): on the quote and on its transaction as `counterpartyInformation`, and so
 * in the transaction's webhook; a counterparty that shares none leaves the field absent. Every adapter.
 */
describeOverHttp("UMA payee data over HTTP", {}, (api) => {
  const { send, newCustomer } = requestsOf(api)

  const quoteTo = async (umaAddress: string) => {
    const alice = await newCustomer()
    expect(
      (await send("POST", `/sandbox/internal-accounts/${alice.accounts.USD}/fund`, { amount: 50_000 })).status
    ).toBe(200)
    const lookup = await send("GET", `/receiver/uma/${encodeURIComponent(umaAddress)}`)
    expect(lookup.status).toBe(200)
    const quote = await send("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: alice.accounts.USD },
      destination: { destinationType: "UMA_ADDRESS", umaAddress, currency: "USD" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
      lookupId: lookup.body.lookupId,
      senderCustomerInfo: { FULL_NAME: "Alice Sender" },
      immediatelyExecute: true
    })
    expect(quote.status, JSON.stringify(quote.body)).toBe(201)
    return quote.body
  }

  it("puts the counterparty's receiverCustomerInfo on the quote, its transaction and the webhook", async () => {
    const quote = await quoteTo("$success.usd@sandbox.uma.money")
    const payee = { FULL_NAME: "Sandbox Receiver SUCCESS" }
    expect(quote.counterpartyInformation).toEqual(payee)
    expect((await send("GET", `/quotes/${quote.id}`)).body.counterpartyInformation).toEqual(payee)
    const transaction = await send("GET", `/transactions/${quote.transactionId}`)
    expect(transaction.body).toMatchObject({ paymentRail: "UMA", counterpartyInformation: payee })
    const events = await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
    const mine = events.filter((event) => event.data["id"] === quote.transactionId)
    expect(mine.length).toBeGreaterThan(0)
    for (const event of mine) expect(event.data["counterpartyInformation"]).toEqual(payee)
  })

  it("leaves counterpartyInformation absent when the counterparty shares no payee data", async () => {
    const quote = await quoteTo("$someone@elsewhere.example")
    expect(quote).not.toHaveProperty("counterpartyInformation")
    expect((await send("GET", `/transactions/${quote.transactionId}`)).body).not.toHaveProperty(
      "counterpartyInformation"
    )
  })
})
