import { Effect } from "effect"
import { expect, it } from "vitest"
import { type Card, Outbox } from "@payrail/core"
import { CardTransactionFixtures } from "@payrail/storage-testkit"
import { makeHarness } from "../support/Harness.js"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

/*
 * The sandbox card network over HTTP on every storage adapter (docs/card-transactions.md): each simulator, the
 * declines, the descriptor magic values, 50 concurrent authorizations against a balance for 10, the webhooks with the
 * full row, and the ledger's invariants after each test. Every response is checked against the OpenAPI document.
 */
describeOverHttp("card transactions", {}, (api) => {
  const setup = async (funded: number, fields: Parameters<typeof CardTransactionFixtures.insertActiveCard>[3] = {}) => {
    const requests = requestsOf(api)
    const customer = await requests.newCustomer()
    const funding = customer.accounts["USD"] ?? ""
    if (funded > 0) {
      expect(
        (await requests.send("POST", `/sandbox/internal-accounts/${funding}/fund`, { amount: funded })).status
      ).toBe(200)
    }
    const card = await api.run(CardTransactionFixtures.insertActiveCard(api.platform.id, customer.id, funding, fields))
    const simulate = (name: string, body: unknown, auth?: string) =>
      requests.send("POST", `/sandbox/cards/${card.id}/simulate/${name}`, body, auth)
    const purchase = (amount: number, descriptor = "Corner Cafe", kind = "authorization") =>
      simulate(kind, { amount, currency: { code: "USD" }, merchant: { descriptor, mcc: "5814", country: "US" } })
    const ledger = (available: number, pendingDebits: number) =>
      api.run(CardTransactionFixtures.checkLedger(api.platform.id, funding, { available, pendingDebits }))
    const change = (fields: Parameters<typeof CardTransactionFixtures.changeCard>[2]) =>
      api.run(CardTransactionFixtures.changeCard(api.platform.id, card, fields))
    return { ...requests, card, funding, simulate, purchase, ledger, change }
  }

  // The CARD_TRANSACTION.* webhooks of `id`, oldest first.
  const webhooksOf = (id: string) =>
    api.run(
      Effect.map(
        Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)),
        (events) => events.filter((event) => event.type.startsWith("CARD_TRANSACTION.") && event.data["id"] === id)
      )
    )

  it("authorization, partial and final clearing, refunds, the reversal: each with its webhook and full row", async () => {
    const t = await setup(10_000)
    const authorized = await t.purchase(5_000)
    expect(authorized.status).toBe(200)
    expect(authorized.body).toMatchObject({
      type: "CARD",
      status: "AUTHORIZED",
      direction: "DEBIT",
      cardId: t.card.id,
      accountId: t.funding,
      authorizedAmount: { amount: 5_000, currency: { code: "USD" } },
      pullSummary: { count: 1, pendingCount: 0 }
    })
    const id = authorized.body.id as string
    await t.ledger(5_000, 5_000)
    const partial = await t.simulate("clearing", { cardTransactionId: id, amount: 2_000 })
    expect(partial.body).toMatchObject({ status: "PARTIALLY_SETTLED", settledAmount: { amount: 2_000 } })
    await t.ledger(5_000, 3_000)
    const settled = await t.simulate("clearing", { cardTransactionId: id, amount: 3_000 })
    expect(settled.body).toMatchObject({ status: "SETTLED", settledAmount: { amount: 5_000 } })
    await t.ledger(5_000, 0)
    const refund = await t.simulate("return", { cardTransactionId: id, amount: 1_000 })
    expect(refund.status).toBe(200)
    expect(refund.body).toMatchObject({
      kind: "RETURN",
      direction: "CREDIT",
      status: "SETTLED",
      originalTransactionId: id
    })
    const above = await t.refusal("POST", `/sandbox/cards/${t.card.id}/simulate/return`, {
      cardTransactionId: id,
      amount: 4_001
    })
    expect(above).toMatchObject({ status: 409, code: "INVALID_STATE_TRANSITION" })
    const full = await t.simulate("return", { cardTransactionId: id, amount: 4_000 })
    expect(full.status).toBe(200)
    await t.ledger(10_000, 0)
    const reversed = await t.simulate("return_reversal", { cardTransactionId: id })
    expect(reversed.body).toMatchObject({ id, status: "SETTLED", refundedAmount: { amount: 1_000 } })
    await t.ledger(6_000, 0)
    const webhooks = await webhooksOf(id)
    expect(webhooks.map((event) => event.type)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED",
      "CARD_TRANSACTION.PARTIALLY_SETTLED",
      "CARD_TRANSACTION.SETTLED",
      "CARD_TRANSACTION.SETTLED",
      "CARD_TRANSACTION.REFUNDED",
      "CARD_TRANSACTION.SETTLED"
    ])
    expect(webhooks[0]?.data).toEqual(authorized.body)
    expect(webhooks[5]?.data).toEqual(reversed.body)
    expect((await webhooksOf(refund.body.id)).map((event) => event.data)).toEqual([refund.body])
  })

  it("declines are 400 with the reason as code and record nothing", async () => {
    const t = await setup(1_000, { maxSpendPerTransaction: 700 })
    expect((await t.purchase(700)).status).toBe(200)
    const code = async (amount: number, descriptor?: string) => {
      const answer = await t.purchase(amount, descriptor)
      expect(answer.status).toBe(400)
      return answer.body.code
    }
    expect(await code(701)).toBe("TRANSACTION_SIZE_LIMIT_EXCEEDED")
    expect(await code(301)).toBe("INSUFFICIENT_FUNDS")
    expect(await code(1, "Shop 002")).toBe("INSUFFICIENT_FUNDS")
    expect(await code(1, "Shop 003")).toBe("CARD_PAUSED")
    const euro = await t.refusal("POST", `/sandbox/cards/${t.card.id}/simulate/authorization`, {
      amount: 1,
      currency: { code: "EUR" },
      merchant: { descriptor: "Shop" }
    })
    expect(euro.status).toBe(400)
    expect(t.fieldsOf(euro.details)).toEqual(["currency.code"])
    await t.change({ status: "FROZEN" })
    expect(await code(1)).toBe("CARD_PAUSED")
    await t.change({ status: "PROCESSING" })
    expect(await code(1)).toBe("CARD_NOT_ACTIVE")
    expect((await t.simulate("balance_inquiry", { merchant: { descriptor: "ATM" } })).body.code).toBe("CARD_NOT_ACTIVE")
    await t.ledger(300, 700)
  })

  it("magic 005 keeps the pull pending; 006 fails it: EXCEPTION with the hold released", async () => {
    const t = await setup(1_000)
    const delayed = await t.purchase(100, "Slow 005")
    expect(delayed.body).toMatchObject({ status: "AUTHORIZED", pullSummary: { pendingCount: 1 } })
    const failed = await t.purchase(200, "Broken 006")
    expect(failed.body).toMatchObject({ status: "EXCEPTION", pullSummary: { totalAmount: { amount: 0 } } })
    expect((await webhooksOf(failed.body.id)).map((event) => event.type)).toEqual(["CARD_TRANSACTION.EXCEPTION"])
    await t.ledger(900, 100)
  })

  it("of 50 concurrent authorizations against a balance for 10, exactly 10 are approved", async () => {
    const t = await setup(1_000)
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.purchase(100)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10)
    expect(answers.filter((answer) => answer.status === 400 && answer.body.code === "INSUFFICIENT_FUNDS")).toHaveLength(
      40
    )
    await t.ledger(0, 1_000)
    expect((await t.send("GET", `/internal-accounts/${t.funding}`)).body.balance.amount).toBe(0)
  })

  it("of 10 concurrent clearings of one authorization exactly one settles it; the others are 409", async () => {
    const t = await setup(1_000)
    const id = (await t.purchase(400)).body.id
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.simulate("clearing", { cardTransactionId: id, amount: 400 }))
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(409)
      expect(["CONFLICT", "INVALID_STATE_TRANSITION"]).toContain(answer.body.code)
    }
    expect((await webhooksOf(id)).map((event) => event.type)).toEqual([
      "CARD_TRANSACTION.AUTHORIZED",
      "CARD_TRANSACTION.SETTLED"
    ])
    await t.ledger(600, 0)
  })

  it("clearing above the hold pulls the difference, or is EXCEPTION; zero expires; advice moves the hold", async () => {
    const t = await setup(1_000)
    const tip = (await t.purchase(100)).body.id
    const over = await t.simulate("clearing", { cardTransactionId: tip, amount: 120 })
    expect(over.body).toMatchObject({ status: "SETTLED", pullSummary: { count: 2, totalAmount: { amount: 120 } } })
    const unused = (await t.purchase(300)).body.id
    expect((await t.simulate("clearing", { cardTransactionId: unused, amount: 0 })).body.status).toBe("EXPIRED")
    await t.ledger(880, 0)
    const raised = (await t.purchase(200)).body.id
    const advice = await t.simulate("authorization_advice", { cardTransactionId: raised, amount: 400 })
    expect(advice.body).toMatchObject({ status: "AUTHORIZED", authorizedAmount: { amount: 400 } })
    const tooMuch = await t.simulate("authorization_advice", { cardTransactionId: raised, amount: 2_000 })
    expect(tooMuch).toMatchObject({ status: 400, body: { code: "INSUFFICIENT_FUNDS" } })
    await t.ledger(480, 400)
    const short = await t.simulate("clearing", { cardTransactionId: raised, amount: 1_000 })
    expect(short.body).toMatchObject({ status: "EXCEPTION", settledAmount: { amount: 1_000 } })
    await t.ledger(480, 0)
    const again = await t.simulate("clearing", { cardTransactionId: raised, amount: 1 })
    expect(again).toMatchObject({ status: 409, body: { code: "INVALID_STATE_TRANSITION" } })
    const inquiry = await t.simulate("balance_inquiry", { merchant: { descriptor: "ATM" } })
    expect(inquiry).toMatchObject({ status: 200, body: { cardId: t.card.id, availableBalance: { amount: 480 } } })
  })

  it("the credit kinds and the financial authorization", async () => {
    const t = await setup(1_000)
    const financial = await t.purchase(100, "Shop", "financial_authorization")
    expect(financial.body).toMatchObject({ kind: "FINANCIAL_AUTHORIZATION", status: "SETTLED", direction: "DEBIT" })
    const credit = await t.purchase(50, "Shop", "credit_authorization")
    expect(credit.body).toMatchObject({ kind: "CREDIT_AUTHORIZATION", status: "AUTHORIZED", direction: "CREDIT" })
    await t.ledger(900, 0)
    expect((await t.simulate("clearing", { cardTransactionId: credit.body.id, amount: 50 })).body.status).toBe(
      "SETTLED"
    )
    const settledCredit = await t.purchase(30, "Shop", "financial_credit_authorization")
    expect(settledCredit.body).toMatchObject({ status: "SETTLED", direction: "CREDIT" })
    await t.change({ status: "FROZEN" })
    expect((await t.purchase(5, "Shop", "credit_authorization")).body.code).toBe("CARD_PAUSED")
    const advice = await t.purchase(20, "Shop 002", "credit_authorization_advice")
    expect(advice.body).toMatchObject({ kind: "CREDIT_AUTHORIZATION_ADVICE", status: "AUTHORIZED" })
    await t.ledger(980, 0)
  })

  it("a deleted cardholder's card spends nothing more, while what it spent before still clears and refunds", async () => {
    const t = await setup(1_000)
    const earlier = await t.purchase(300)
    expect(earlier.status).toBe(200)
    const customerId = earlier.body.customerId as string
    expect((await t.send("DELETE", `/customers/${customerId}`)).status).toBe(200)
    const declined = await t.purchase(100)
    expect([declined.status, declined.body.code]).toEqual([400, "CARD_NOT_ACTIVE"])
    expect((await t.purchase(100, "Shop", "financial_authorization")).body.code).toBe("CARD_NOT_ACTIVE")
    const cleared = await t.simulate("clearing", { cardTransactionId: earlier.body.id, amount: 300 })
    expect(cleared.body.status).toBe("SETTLED")
    const refund = await t.simulate("return", { cardTransactionId: earlier.body.id, amount: 300 })
    expect(refund.body).toMatchObject({ status: "SETTLED", direction: "CREDIT" })
    await t.ledger(1_000, 0)
    const again = await t.send("POST", "/cards", { customerId, form: "VIRTUAL", fundingSource: t.funding })
    expect([again.status, again.body.code]).toEqual([410, "CUSTOMER_DELETED"])
  })

  it("needs TRANSACT; unknown cards, other platforms' cards and transactions of another card are 404", async () => {
    const t = await setup(1_000)
    const viewer = await api.tokenWith(["VIEW"])
    const body = { amount: 1, currency: { code: "USD" }, merchant: { descriptor: "Shop" } }
    expect((await t.simulate("authorization", body, viewer)).status).toBe(403)
    expect((await t.simulate("authorization", body, api.otherPlatformBasic)).body.code).toBe("NOT_FOUND")
    const unknown = `Card:${globalThis.crypto.randomUUID()}`
    expect((await t.send("POST", `/sandbox/cards/${unknown}/simulate/authorization`, body)).status).toBe(404)
    const malformed = await t.refusal("POST", "/sandbox/cards/nope/simulate/authorization", body)
    expect(malformed.status).toBe(400)
    const row = (await t.purchase(10)).body.id
    const other: Card.Card = await api.run(
      CardTransactionFixtures.insertActiveCard(api.platform.id, t.card.customerId, t.funding)
    )
    const misplaced = await t.send("POST", `/sandbox/cards/${other.id}/simulate/clearing`, {
      cardTransactionId: row,
      amount: 10
    })
    expect(misplaced).toMatchObject({ status: 404, body: { code: "TRANSACTION_NOT_FOUND" } })
    await t.ledger(990, 10)
  })
})

it("a production platform cannot simulate the card network (403)", async () => {
  const api = await makeHarness({ environment: "PRODUCTION" })
  try {
    const card = await api.run(
      CardTransactionFixtures.insertActiveCard(api.platform.id, "Customer:x", "InternalAccount:x")
    )
    const answer = await requestsOf(api).refusal("POST", `/sandbox/cards/${card.id}/simulate/authorization`, {
      amount: 1,
      currency: { code: "USD" },
      merchant: { descriptor: "Shop" }
    })
    expect(answer.status).toBe(403)
  } finally {
    await api.dispose()
  }
})
