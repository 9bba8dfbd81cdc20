import { beforeAll, expect, it } from "vitest"
import { DateTime, Duration, Effect, Layer } from "effect"
import {
  IncomingApprovals,
  IncomingDecision,
  IncomingDecisionJob,
  Jobs,
  Ledger,
  Platform,
  Platforms,
  PlatformTime,
  WebhookTransport
} from "@payrail/core"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

const endpoint = "https://receiver.example/hooks"
const sender = "$success.usd@sandbox.uma.money"

/** What the platform's webhook receiver answers next, and every request it got. */
const receiver = {
  reply: { status: 202, body: "", latencyMillis: 20 },
  received: [] as Array<WebhookTransport.WebhookRequest>
}

const transport = Layer.succeed(
  WebhookTransport.WebhookTransport,
  WebhookTransport.fromSend((request) =>
    Effect.sync(() => {
      receiver.received.push(request)
      return receiver.reply
    })
  )
)

const config = new Platform.PlatformConfig({
  ...Platforms.defaultConfig,
  webhookEndpoint: endpoint,
  incomingPaymentApproval: true
})

/*
 * Incoming payments held for the platform's decision (docs/incoming-approvals.md), over HTTP on every storage
 * adapter: the webhook reply deciding within the window, approve and reject through the API with every refusal,
 * approve racing reject, the deadline, and the receiver's balance after each.
 */
describeOverHttp("incoming payment approvals over HTTP", { config, webhookTransport: transport }, (api) => {
  const requests = requestsOf(api)
  const { send, refusal } = requests

  beforeAll(async () => {
    expect((await send("POST", "/webhooks/secret/rotate")).status).toBe(200)
  })

  const answering = (status: number, body: unknown = "", latencyMillis = 20) => {
    receiver.reply = { status, body: typeof body === "string" ? body : JSON.stringify(body), latencyMillis }
  }

  const receive = async (customerId: string, amount: number, from = sender) => {
    const received = await send("POST", "/sandbox/uma/receive", {
      senderUmaAddress: from,
      customerId,
      receivingCurrencyCode: "USD",
      receivingCurrencyAmount: amount
    })
    expect(received.status).toBe(200)
    return received.body as { readonly id: string; readonly status: string; readonly failureReason?: string }
  }

  const available = async (accountId: string) => {
    const account = await send("GET", `/internal-accounts/${accountId}`)
    expect(account.status).toBe(200)
    return account.body.balance.amount as number
  }

  const statusOf = async (id: string) => (await send("GET", `/transactions/${id}`)).body

  const approve = (id: string, body?: unknown, auth?: string) => send("POST", `/transactions/${id}/approve`, body, auth)
  const reject = (id: string, body?: unknown, auth?: string) => send("POST", `/transactions/${id}/reject`, body, auth)

  it("lets a webhook reply of 200 within the window approve the payment at once, crediting the receiver", async () => {
    const customer = await requests.newCustomer()
    answering(200, { receiverCustomerInfo: { FULL_NAME: "Kim Lee" } })
    receiver.received.length = 0
    const received = await receive(customer.id, 1_500)
    expect(received).toMatchObject({ status: "COMPLETED", type: "INCOMING" })
    expect(await available(customer.accounts.USD!)).toBe(1_500)
    expect(receiver.received).toHaveLength(1)
    const sent = receiver.received[0]!
    expect(sent.url).toBe(endpoint)
    expect(Object.keys(sent.headers)).toEqual(expect.arrayContaining(["webhook-id", "webhook-signature"]))
    expect(JSON.parse(sent.body)).toMatchObject({
      type: "INCOMING_PAYMENT",
      data: { id: received.id, status: "PENDING", type: "INCOMING" }
    })
    expect(await refusal("POST", `/transactions/${received.id}/approve`)).toEqual({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { transactionId: received.id, status: "COMPLETED", decision: "APPROVED", rule: "decided_once" }
    })
  })

  it("lets a reply of 403 reject it and 422 fail it, crediting nothing", async () => {
    const customer = await requests.newCustomer()
    answering(403, { code: "FORBIDDEN", message: "no", reason: "sender not accepted" })
    const rejected = await receive(customer.id, 700)
    expect(rejected.status).toBe("REJECTED")
    answering(422, { requiredFields: ["FULL_NAME"] })
    const failed = await receive(customer.id, 800)
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "MISSING_MANDATORY_PAYEE_DATA" })
    expect(await available(customer.accounts.USD!)).toBe(0)
    expect((await reject(rejected.id)).status).toBe(409)
  })

  it("leaves the decision to the API after a 202, a late reply or another status", async () => {
    const customer = await requests.newCustomer()
    for (const [status, latency] of [
      [202, 20],
      [200, 5_001],
      [500, 20],
      [301, 20]
    ] as const) {
      answering(status, "", latency)
      expect((await receive(customer.id, 100)).status).toBe("PENDING")
    }
    expect(await available(customer.accounts.USD!)).toBe(0)
  })

  it("approves a held payment through the API once: it completes and its credit becomes available", async () => {
    const customer = await requests.newCustomer()
    answering(202)
    const held = await receive(customer.id, 2_500)
    expect(held.status).toBe("PENDING")
    expect(await available(customer.accounts.USD!)).toBe(0)
    const approved = await approve(held.id, { receiverCustomerInfo: { FULL_NAME: "Kim Lee" } })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ id: held.id, status: "COMPLETED", settledAt: expect.any(String) })
    expect(await available(customer.accounts.USD!)).toBe(2_500)
    expect((await statusOf(held.id)).status).toBe("COMPLETED")
    for (const again of [await approve(held.id), await reject(held.id, { reason: "late" })]) {
      expect([again.status, again.body.code, again.body.details.decision]).toEqual([
        409,
        "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
        "APPROVED"
      ])
    }
    expect(await available(customer.accounts.USD!)).toBe(2_500)
  })

  it("rejects a held payment through the API, with or without a reason, releasing its credit", async () => {
    const customer = await requests.newCustomer()
    answering(202)
    const first = await receive(customer.id, 900)
    const second = await receive(customer.id, 400)
    const rejected = await reject(first.id, { reason: "Receiver closed the account" })
    expect([rejected.status, rejected.body.status]).toEqual([200, "REJECTED"])
    const bare = await api.request(`/2025-10-13/transactions/${second.id}/reject`, { method: "POST" })
    expect(bare.status).toBe(200)
    expect(((await bare.json()) as { status: string }).status).toBe("REJECTED")
    expect(await available(customer.accounts.USD!)).toBe(0)
    expect(await refusal("POST", `/transactions/${first.id}/approve`)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { status: "REJECTED", decision: "REJECTED" }
    })
    const balance = await api.run(
      Effect.flatMap(Ledger.Ledger, (ledger) =>
        Effect.all([
          ledger.balance(api.platform.id, customer.accounts.USD!),
          ledger.reconcile(api.platform.id, customer.accounts.USD!)
        ])
      )
    )
    expect(balance[0]).toEqual(balance[1])
    expect(balance[0].pendingCreditsMinor).toBe(0n)
  })

  it("lets exactly one of an approval and a rejection racing on a held payment win", async () => {
    const customer = await requests.newCustomer()
    answering(202)
    const held = await Promise.all([1, 2, 3, 4, 5].map(() => receive(customer.id, 100)))
    let approvedTotal = 0
    for (const payment of held) {
      const [approved, rejected] = await Promise.all([approve(payment.id), reject(payment.id)])
      expect([approved.status, rejected.status].sort()).toEqual([200, 409])
      const final = (await statusOf(payment.id)).status
      expect(final).toBe(approved.status === 200 ? "COMPLETED" : "REJECTED")
      if (approved.status === 200) approvedTotal += 100
    }
    expect(await available(customer.accounts.USD!)).toBe(approvedTotal)
    const [balance, reconciled] = await api.run(
      Effect.flatMap(Ledger.Ledger, (ledger) =>
        Effect.all([
          ledger.balance(api.platform.id, customer.accounts.USD!),
          ledger.reconcile(api.platform.id, customer.accounts.USD!)
        ])
      )
    )
    expect(balance).toEqual(reconciled)
    expect(balance.pendingCreditsMinor).toBe(0n)
  })

  it("answers every refusal of approve and reject with its status and code", async () => {
    const unknown = "Transaction:00000000-0000-4000-8000-000000000000"
    for (const path of [`/transactions/${unknown}/approve`, `/transactions/${unknown}/reject`]) {
      expect(await refusal("POST", path)).toMatchObject({ status: 404, code: "TRANSACTION_NOT_FOUND" })
    }
    for (const path of ["/transactions/Quote:nope/approve", "/transactions/nope/reject"]) {
      expect(await refusal("POST", path)).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    }
    const customer = await requests.newCustomer()
    answering(202)
    const held = await receive(customer.id, 100)
    const invalid = await refusal("POST", `/transactions/${held.id}/reject`, { reason: "x".repeat(1001), tip: 1 })
    expect([invalid.status, invalid.code, requests.fieldsOf(invalid.details).sort()]).toEqual([
      400,
      "INVALID_INPUT",
      ["reason", "tip"]
    ])
    const viewer = await api.tokenWith(["VIEW"])
    expect(await refusal("POST", `/transactions/${held.id}/approve`, undefined, viewer)).toMatchObject({
      status: 403,
      code: "FORBIDDEN"
    })
    expect(await refusal("POST", `/transactions/${held.id}/reject`, undefined, viewer)).toMatchObject({
      status: 403,
      code: "FORBIDDEN"
    })
    expect(await refusal("POST", `/transactions/${held.id}/approve`, undefined, api.otherPlatformBasic)).toMatchObject({
      status: 404
    })
    expect(await refusal("POST", `/transactions/${held.id}/reject`, undefined, api.otherPlatformBasic)).toMatchObject({
      status: 404,
      code: "TRANSACTION_NOT_FOUND"
    })
    // A payment pending on the sender's side is not the platform's to decide: reject names no decision; approve
    // takes the agents' meaning, and refuses too.
    const completed = await receive(customer.id, 100, "$pending.long.usd@sandbox.uma.money")
    expect(completed.status).toBe("PENDING")
    expect(await refusal("POST", `/transactions/${completed.id}/reject`)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { decision: "NONE" }
    })
    expect(await refusal("POST", `/transactions/${completed.id}/approve`)).toMatchObject({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { transactionId: completed.id, actionStatus: "NONE" }
    })
  })

  it("shows and validates incomingPaymentApproval in the platform configuration", async () => {
    expect((await send("GET", "/config")).body.incomingPaymentApproval).toBe(true)
    const invalid = await refusal("PATCH", "/config", { incomingPaymentApproval: "yes" })
    expect([invalid.status, invalid.code, requests.fieldsOf(invalid.details)]).toEqual([
      400,
      "INVALID_INPUT",
      ["incomingPaymentApproval"]
    ])
    const off = await send("PATCH", "/config", { incomingPaymentApproval: false })
    expect([off.status, off.body.incomingPaymentApproval]).toEqual([200, false])
    const customer = await requests.newCustomer()
    answering(202)
    expect((await receive(customer.id, 100)).status).toBe("COMPLETED")
    expect((await send("PATCH", "/config", { incomingPaymentApproval: true })).body.incomingPaymentApproval).toBe(true)
  })

  it("fails a payment still held at its deadline, by its job, releasing its credit", async () => {
    const customer = await requests.newCustomer()
    answering(202)
    const held = await receive(customer.id, 300)
    const after = Duration.sum(IncomingDecision.deadline, "1 second")
    const ran = await api.run(
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const all = yield* jobs.claim({
          limit: 1_000,
          now: DateTime.addDuration(DateTime.unsafeNow(), after),
          lease: Duration.minutes(1)
        })
        const mine = all.filter(
          (claimed) => claimed.job.kind === IncomingDecisionJob.kind && claimed.job.payload["transactionId"] === held.id
        )
        for (const other of all) if (!mine.includes(other)) yield* jobs.release(other)
        const approvals = yield* IncomingApprovals.IncomingApprovals
        for (const claimed of mine) {
          yield* PlatformTime.within(after)(approvals.runDeadline(claimed.job))
          yield* jobs.complete(claimed)
        }
        return mine.length
      })
    )
    expect(ran).toBe(1)
    expect(await statusOf(held.id)).toMatchObject({ status: "FAILED", failureReason: "PAYMENT_APPROVAL_TIMED_OUT" })
    expect(await refusal("POST", `/transactions/${held.id}/approve`)).toMatchObject({
      status: 409,
      details: { decision: "TIMED_OUT", status: "FAILED" }
    })
    expect(await available(customer.accounts.USD!)).toBe(0)
  })

  // Last: it moves the platform's sandbox clock.
  it("refuses a decision at the deadline (sandbox clock) and fails the payment instead", async () => {
    const customer = await requests.newCustomer()
    answering(202)
    const held = await receive(customer.id, 300)
    expect((await send("POST", "/sandbox/clock/advance", { seconds: 300 })).status).toBe(200)
    expect(await refusal("POST", `/transactions/${held.id}/approve`)).toEqual({
      status: 409,
      code: "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL",
      details: { transactionId: held.id, status: "FAILED", decision: "TIMED_OUT", rule: "decided_once" }
    })
    expect(await statusOf(held.id)).toMatchObject({ status: "FAILED", failureReason: "PAYMENT_APPROVAL_TIMED_OUT" })
    expect((await reject(held.id)).status).toBe(409)
    expect(await available(customer.accounts.USD!)).toBe(0)
  })
})
