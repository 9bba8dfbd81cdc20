import { expect, it } from "vitest"
import { Effect } from "effect"
import { Outbox } from "@payrail/core"
import { expectBalancedBooks } from "./LedgerChecks.js"
import { type Body, type PaymentPlatform, usdAccount } from "./PaymentApp.js"
import { describeOnEveryStore } from "./OnEveryStore.js"

/*
 * Money arriving from outside, end to end through HTTP on every store: sandbox funding as an incoming transaction,
 * and UMA payments to a customer's primary internal account or default external account, for each sandbox sender
 * (success, long pending completed by the sandbox clock, compliance failure). The books balance after every step.
 */
describeOnEveryStore("incoming payments", "incoming_payments", {}, (app) => {
  // The INCOMING_PAYMENT events recorded about a transaction, oldest first: their data.
  const webhooksOf = async (platform: PaymentPlatform, transactionId: string) =>
    (await app.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000))))
      .filter((event) => event.platformId === platform.platform.id && event.data["id"] === transactionId)
      .map((event) => {
        expect(event.type).toBe("INCOMING_PAYMENT")
        return event.data
      })

  const receive = (platform: PaymentPlatform, body: Record<string, unknown>) =>
    platform.call("POST", "/sandbox/uma/receive", body)

  const ids = (page: Body) => page.data.map((row) => row.id)

  // An UMA payment from `sender` to the customer `customerId` of `amount` minor units of `currency`.
  const receiveBy = (platform: PaymentPlatform, customerId: string, sender: string, currency: string, amount: number) =>
    receive(platform, {
      senderUmaAddress: sender,
      customerId,
      receivingCurrencyCode: currency,
      receivingCurrencyAmount: amount
    })

  it("lists sandbox funding as a completed incoming transaction, found by customer and account, once per key", async () => {
    const [platform, alice] = await app.newPlatformWithCustomer("Alice Funded")
    const bob = await platform.newCustomer("Bob Unfunded")
    const key = { "idempotency-key": `fund-${globalThis.crypto.randomUUID()}` }
    // The same funding twice with one key: the second is a replay.
    const fundOnce = () =>
      platform.call("POST", `/sandbox/internal-accounts/${alice.accounts.USD}/fund`, { amount: 4_200 }, key)
    const funded = await fundOnce()
    expect(funded.status).toBe(200)
    expect(funded.body).toMatchObject({ id: alice.accounts.USD, balance: { amount: 4_200 } })
    const replayed = await fundOnce()
    expect(replayed.status).toBe(200)

    const listed = await platform.call("GET", `/transactions?customerId=${alice.id}`)
    expect(listed.status).toBe(200)
    expect(listed.body.data).toHaveLength(1)
    const [funding] = listed.body.data
    expect(funding).toMatchObject({
      id: expect.stringMatching(/^Transaction:/),
      type: "INCOMING",
      status: "COMPLETED",
      direction: "CREDIT",
      source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
      destination: { destinationType: "ACCOUNT", accountId: alice.accounts.USD, currency: "USD" },
      customerId: alice.id,
      receivedAmount: { amount: 4_200, currency: { code: "USD" } },
      settledAt: expect.any(String)
    })
    const id = funding!.id
    expect(await platform.transactionOf(id)).toEqual(funding)
    for (const filter of [
      `accountIdentifier=${alice.accounts.USD}`,
      `receiverAccountIdentifier=${alice.accounts.USD}`,
      `platformCustomerId=${(funding as unknown as { platformCustomerId: string }).platformCustomerId}`,
      "type=INCOMING&status=COMPLETED"
    ]) {
      expect(ids((await platform.call("GET", `/transactions?${filter}`)).body)).toEqual([id])
    }
    expect(ids((await platform.call("GET", `/transactions?customerId=${bob.id}`)).body)).toEqual([])
    expect(ids((await platform.call("GET", "/transactions?type=OUTGOING")).body)).toEqual([])
    // The webhook carries the transaction as GET shows it, once for the two calls.
    expect(await webhooksOf(platform, id)).toEqual([funding])
    await expectBalancedBooks(app, platform, [alice.accounts.USD!], { reservationsAllowed: true })
  })

  it("deposits an UMA payment to the receiver's primary internal account, by address or by id", async () => {
    const platform = await app.newPlatform()
    const created = await platform.call("POST", "/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Uma Receiver"
    })
    const carol = await platform.newCustomer("Carol Other")
    const umaAddress = (created.body as unknown as { umaAddress: string }).umaAddress
    const accounts = await platform.call("GET", `/internal-accounts?customerId=${created.body.id}&limit=100`)
    const eur = accounts.body.data.find(
      (row) => row.type !== "EMBEDDED_WALLET" && row.balance.currency.code === "EUR"
    )!.id
    const received = await receive(platform, {
      senderUmaAddress: "$success.eur@sandbox.grid.uma.money",
      receiverUmaAddress: umaAddress.toUpperCase(),
      receivingCurrencyCode: "EUR",
      receivingCurrencyAmount: 1_234
    })
    expect(received.status).toBe(200)
    expect(received.body).toMatchObject({
      type: "INCOMING",
      status: "COMPLETED",
      direction: "CREDIT",
      source: { sourceType: "UMA_ADDRESS", umaAddress: "$success.eur@sandbox.grid.uma.money" },
      destination: { destinationType: "ACCOUNT", accountId: eur, currency: "EUR" },
      customerId: created.body.id,
      receivedAmount: { amount: 1_234, currency: { code: "EUR" } }
    })
    expect(await platform.transactionOf(received.body.id)).toEqual(received.body)
    expect(await platform.balanceOf(eur)).toEqual({ available: 1_234, total: 1_234 })
    expect(await webhooksOf(platform, received.body.id)).toEqual([received.body])

    // Any other well-formed sender succeeds too; the receiver may be named by id.
    const byId = await receiveBy(platform, carol.id, "$grandma@uma.example", "MXN", 500)
    expect(byId.body).toMatchObject({ status: "COMPLETED", destination: { accountId: carol.accounts.MXN } })
    expect(await platform.balanceOf(carol.accounts.MXN!)).toEqual({ available: 500, total: 500 })
    expect(ids((await platform.call("GET", "/transactions?accountIdentifier=$grandma@uma.example")).body)).toEqual([
      byId.body.id
    ])
    await expectBalancedBooks(app, platform, [eur, carol.accounts.MXN!], { reservationsAllowed: true })
  })

  it("passes an UMA payment through to the default external deposit account of the currency", async () => {
    const [platform, dana] = await app.newPlatformWithCustomer("Dana Default")
    const bank = await platform.call("POST", "/customers/external-accounts", {
      customerId: dana.id,
      currency: "USD",
      accountInfo: { ...usdAccount("12345678901"), paymentRails: ["ACH"] },
      defaultUmaDepositAccount: true
    })
    expect(bank.status).toBe(201)
    const received = await receiveBy(platform, dana.id, "$success.usd@sandbox.uma.money", "USD", 7_000)
    expect(received.status).toBe(200)
    expect(received.body).toMatchObject({
      status: "COMPLETED",
      destination: { destinationType: "ACCOUNT", accountId: bank.body.id, currency: "USD" }
    })
    expect(await platform.balanceOf(dana.accounts.USD!)).toEqual({ available: 0, total: 0 })
    // A payment in another currency goes to the primary internal account of that currency.
    const euros = await receiveBy(platform, dana.id, "$success.eur@sandbox.uma.money", "EUR", 300)
    expect(euros.body).toMatchObject({ status: "COMPLETED", destination: { accountId: dana.accounts.EUR } })
    expect(await webhooksOf(platform, received.body.id)).toEqual([received.body])
    await expectBalancedBooks(app, platform, [dana.accounts.USD!, dana.accounts.EUR!], { reservationsAllowed: true })
  })

  it("holds a long-pending sender's payment until an hour of the sandbox clock has passed", async () => {
    const [platform, erin] = await app.newPlatformWithCustomer("Erin Patient")
    const received = await receiveBy(platform, erin.id, "$pending.long.usd@sandbox.uma.money", "USD", 900)
    expect(received.status).toBe(200)
    expect(received.body).toMatchObject({ status: "PENDING", destination: { accountId: erin.accounts.USD } })
    expect(received.body).not.toHaveProperty("settledAt")
    await app.settle()
    expect((await platform.transactionOf(received.body.id)).status).toBe("PENDING")
    expect(await platform.balanceOf(erin.accounts.USD!)).toEqual({ available: 0, total: 0 })
    await expectBalancedBooks(app, platform, [erin.accounts.USD!], { reservationsAllowed: true })

    await platform.advance(3_540)
    await app.settle()
    expect((await platform.transactionOf(received.body.id)).status).toBe("PENDING")
    await platform.advance(60)
    await app.settle()
    const completed = await platform.transactionOf(received.body.id)
    expect(completed).toMatchObject({ status: "COMPLETED", settledAt: expect.any(String) })
    expect(await platform.balanceOf(erin.accounts.USD!)).toEqual({ available: 900, total: 900 })
    expect((await webhooksOf(platform, received.body.id)).map((data) => data["status"])).toEqual([
      "PENDING",
      "COMPLETED"
    ])
    expect((await webhooksOf(platform, received.body.id))[1]).toEqual(completed)
    expect(app.jobs.failures.filter((failure) => failure.includes("dead"))).toEqual([])
    await expectBalancedBooks(app, platform, [erin.accounts.USD!], { reservationsAllowed: true })
  })

  it("fails a compliance-failure sender's payment and credits nothing", async () => {
    const [platform, frank] = await app.newPlatformWithCustomer("Frank Refused")
    const received = await receiveBy(platform, frank.id, "$fail.compliance.usd@sandbox.uma.money", "USD", 800)
    expect(received.status).toBe(200)
    expect(received.body).toMatchObject({ status: "FAILED", failureReason: "COMPLIANCE_REJECTED" })
    expect(await platform.transactionOf(received.body.id)).toEqual(received.body)
    expect(await platform.balanceOf(frank.accounts.USD!)).toEqual({ available: 0, total: 0 })
    expect(await webhooksOf(platform, received.body.id)).toEqual([received.body])
    await app.settle()
    expect((await platform.transactionOf(received.body.id)).status).toBe("FAILED")
    await expectBalancedBooks(app, platform, [frank.accounts.USD!], { reservationsAllowed: true })
  })
})
