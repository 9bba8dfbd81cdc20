import { expect, it } from "vitest"
import { Effect } from "effect"
import { Ledger, Outbox } from "@payrail/core"
import { AccountInfoExamples } from "@payrail/storage-testkit"
import { describeOverHttp } from "../support/OverHttp.js"
import { quoteBody, requestsOf } from "../support/Requests.js"

/*
 * `POST /transactions/{id}/cancel` over HTTP on every storage adapter (docs/incoming-approvals.md): an ACH payout
 * still PROCESSING is withdrawn and its money released; every other transaction answers its 409 rule.
 */
describeOverHttp("transaction cancellation over HTTP", {}, (api) => {
  const requests = requestsOf(api)
  const { send, refusal } = requests

  const funded = async (amount: number) => {
    const customer = await requests.newCustomer()
    const fund = await send("POST", `/sandbox/internal-accounts/${customer.accounts.USD}/fund`, { amount })
    expect(fund.status).toBe(200)
    const external = await send("POST", "/customers/external-accounts", {
      customerId: customer.id,
      currency: "USD",
      accountInfo: AccountInfoExamples.exampleOf("USD_ACCOUNT")
    })
    expect(external.status).toBe(201)
    return { customer, source: customer.accounts.USD!, external: external.body.id as string }
  }

  const payout = async (source: string, external: string, amount: number, paymentRail: string) => {
    const quote = await send(
      "POST",
      "/quotes",
      quoteBody(source, external, amount, {
        destination: { destinationType: "ACCOUNT", accountId: external, paymentRail },
        immediatelyExecute: true
      })
    )
    expect(quote.status).toBe(201)
    const transaction = await send("GET", `/transactions/${quote.body.transactionId}`)
    expect(transaction.body).toMatchObject({ status: "PROCESSING", paymentRail, type: "OUTGOING" })
    return transaction.body as { readonly id: string }
  }

  const available = async (accountId: string) => (await send("GET", `/internal-accounts/${accountId}`)).body

  it("withdraws an ACH payout still PROCESSING, releasing its money, once", async () => {
    const { source, external } = await funded(10_000)
    const sent = await payout(source, external, 4_000, "ACH")
    const before = await available(source)
    expect(before.balance.amount).toBeLessThan(10_000)
    const cancelled = await send("POST", `/transactions/${sent.id}/cancel`, { reason: "customer asked" })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({
      id: sent.id,
      status: "FAILED",
      refund: { status: "COMPLETED", reason: "USER_CANCELLATION" },
      cancellationReason: "customer asked"
    })
    const after = await available(source)
    expect([after.balance.amount, after.totalBalance.amount]).toEqual([10_000, 10_000])
    expect((await send("GET", `/transactions/${sent.id}`)).body).toMatchObject({
      status: "FAILED",
      cancellationReason: "customer asked"
    })
    const events = await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(10_000)))
    const failed = events.filter((event) => event.data["id"] === sent.id && event.data["status"] === "FAILED")
    expect(failed.map((event) => [event.type, event.data["cancellationReason"]])).toEqual([
      ["OUTGOING_PAYMENT", "customer asked"]
    ])
    expect(await refusal("POST", `/transactions/${sent.id}/cancel`)).toEqual({
      status: 409,
      code: "TRANSACTION_NOT_CANCELLABLE",
      details: { transactionId: sent.id, status: "FAILED", paymentRail: "ACH", rule: "already_sent" }
    })
    const [balance, reconciled] = await api.run(
      Effect.flatMap(Ledger.Ledger, (ledger) =>
        Effect.all([ledger.balance(api.platform.id, source), ledger.reconcile(api.platform.id, source)])
      )
    )
    expect(balance).toEqual(reconciled)
    expect(balance.pendingDebitsMinor).toBe(0n)
  })

  it("lets exactly one of concurrent cancels of a payout apply", async () => {
    const { source, external } = await funded(5_000)
    const sent = await payout(source, external, 1_000, "ACH")
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => send("POST", `/transactions/${sent.id}/cancel`)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409])
    const winner = answers.find((answer) => answer.status === 200)
    expect(winner?.body).not.toHaveProperty("cancellationReason")
    expect((await available(source)).balance.amount).toBe(5_000)
  })

  it("refuses wires and instant rails, incoming payments, unknown ids and callers without TRANSACT", async () => {
    const { customer, source, external } = await funded(10_000)
    for (const rail of ["WIRE", "RTP"]) {
      const sent = await payout(source, external, 1_000, rail)
      expect(await refusal("POST", `/transactions/${sent.id}/cancel`)).toEqual({
        status: 409,
        code: "TRANSACTION_NOT_CANCELLABLE",
        details: { transactionId: sent.id, status: "PROCESSING", paymentRail: rail, rule: "rail_not_cancellable" }
      })
    }
    const received = await send("POST", "/sandbox/uma/receive", {
      senderUmaAddress: "$success.usd@sandbox.uma.money",
      customerId: customer.id,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: 100
    })
    expect(await refusal("POST", `/transactions/${received.body.id}/cancel`)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_CANCELLABLE",
      details: { rule: "not_outgoing" }
    })
    const unknown = "Transaction:00000000-0000-4000-8000-000000000000"
    expect(await refusal("POST", `/transactions/${unknown}/cancel`)).toMatchObject({
      status: 404,
      code: "TRANSACTION_NOT_FOUND"
    })
    expect(await refusal("POST", "/transactions/nope/cancel")).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    const sent = await payout(source, external, 1_000, "ACH")
    expect(await refusal("POST", `/transactions/${sent.id}/cancel`, {}, await api.tokenWith(["VIEW"]))).toMatchObject({
      status: 403,
      code: "FORBIDDEN"
    })
    expect(await refusal("POST", `/transactions/${sent.id}/cancel`, {}, api.otherPlatformBasic)).toMatchObject({
      status: 404,
      code: "TRANSACTION_NOT_FOUND"
    })
    const invalid = await refusal("POST", `/transactions/${sent.id}/cancel`, { reason: 5 })
    expect([invalid.status, requests.fieldsOf(invalid.details)]).toEqual([400, ["reason"]])
  })
})
