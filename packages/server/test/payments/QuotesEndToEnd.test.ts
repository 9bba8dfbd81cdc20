import { expect, it } from "vitest"
import { Effect } from "effect"
import { Ledger, LightningDestination, SystemAccounts } from "@payrail/core"
import { type Body, paymentConfigOf } from "./PaymentApp.js"
import { describeOnEveryStore } from "./OnEveryStore.js"

/*
 * Quotes and transactions through the HTTP API on every store, the job worker running as a server runs it: payments
 * between customers and out to external accounts, refusals, races, REALTIME_FUNDING, the deprecated transfers and
 * the transaction list.
 */

describeOnEveryStore(
  "quotes and transactions end to end",
  "quotes_e2e",
  { config: paymentConfigOf(["USD", "EUR", "MXN", "USDC", "BTC"]), running: true },
  (app) => {
    it("pays between two customers' USD accounts: quote, then an execute that settles it, balances and the transaction", async () => {
      const alice = await app.newCustomer("Alice Payer")
      const bob = await app.newCustomer("Bob Payee")
      await app.fund(alice.accounts.USD!, 50_000)
      const quoted = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 10_000, { description: "Rent" })
      expect(quoted.status).toBe(201)
      expect(quoted.body).toMatchObject({
        status: "PENDING",
        sendingCurrency: { code: "USD" },
        receivingCurrency: { code: "USD" },
        totalSendingAmount: 10_000,
        totalReceivingAmount: 10_000,
        exchangeRate: 1,
        feesIncluded: 0,
        customerId: alice.id
      })
      const pending = await app.transactionOf(quoted.body.transactionId)
      expect(pending).toMatchObject({
        status: "PENDING",
        type: "OUTGOING",
        quoteId: quoted.body.id,
        customerId: alice.id
      })

      const executed = await app.call("POST", `/quotes/${quoted.body.id}/execute`)
      expect(executed.status).toBe(200)
      // Between internal accounts nothing crosses a rail: the execute settles the payment.
      expect(executed.body.status).toBe("COMPLETED")
      const settled = await app.transactionOf(quoted.body.transactionId)
      expect(settled.status).toBe("COMPLETED")
      expect(settled).toMatchObject({
        sentAmount: { amount: 10_000, currency: { code: "USD" } },
        receivedAmount: { amount: 10_000, currency: { code: "USD" } }
      })
      expect(settled.settledAt).toBeDefined()
      expect((await app.call("GET", `/quotes/${quoted.body.id}`)).body.status).toBe("COMPLETED")
      expect(await app.balanceOf(alice.accounts.USD!)).toEqual({ available: 40_000, total: 40_000 })
      expect(await app.balanceOf(bob.accounts.USD!)).toEqual({ available: 10_000, total: 10_000 })
      for (const total of (await app.postedTotals()).values()) expect(total).toBe(0n)
    })

    it("converts USD to EUR: fees stay on the platform's fee account and the pricing rule holds", async () => {
      const alice = await app.newCustomer("Alice Converter")
      const bob = await app.newCustomer("Bob Euro")
      await app.fund(alice.accounts.USD!, 100_000)
      const quoted = await app.quote(alice.accounts.USD!, bob.accounts.EUR!, 25_000)
      expect(quoted.status).toBe(201)
      const q = quoted.body
      expect(q.sendingCurrency.code).toBe("USD")
      expect(q.receivingCurrency.code).toBe("EUR")
      expect(q.totalSendingAmount).toBe(25_000)
      expect(q.feesIncluded).toBeGreaterThan(0)
      // totalSendingAmount = ceil(totalReceivingAmount × exchangeRate) + feesIncluded (both currencies have 2 decimals)
      expect(Math.ceil(q.totalReceivingAmount * q.exchangeRate - 1e-9)).toBe(q.totalSendingAmount - q.feesIncluded)
      expect((await app.call("POST", `/quotes/${q.id}/execute`)).status).toBe(200)
      await app.waitForStatus(q.transactionId, "COMPLETED")
      // The outgoing transaction shows how its price was made, as its quote does (the reference's rateDetails).
      const paid = await app.call("GET", `/transactions/${q.transactionId}`)
      expect(paid.body.type).toBe("OUTGOING")
      expect(paid.body.rateDetails).toEqual(q.rateDetails)
      expect(q.rateDetails).toEqual(expect.objectContaining({ gridApiMultiplier: expect.any(Number) }))
      expect((await app.balanceOf(alice.accounts.USD!)).available).toBe(75_000)
      expect((await app.balanceOf(bob.accounts.EUR!)).available).toBe(q.totalReceivingAmount)
      const fees = await app.run(
        Effect.flatMap(Ledger.Ledger, (ledger) =>
          ledger.balance(app.platform.id, SystemAccounts.accountId(app.platform.id, "FEES", "USD"))
        )
      )
      expect(fees.postedMinor).toBeGreaterThanOrEqual(BigInt(q.feesIncluded))
      for (const total of (await app.postedTotals()).values()) expect(total).toBe(0n)
    })

    it("refuses what the spec refuses: insufficient funds, a second execute, self payment, an expired quote", async () => {
      const alice = await app.newCustomer("Alice Refused")
      const bob = await app.newCustomer("Bob Refused")
      await app.fund(alice.accounts.USD!, 1_000)
      const tooMuch = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 5_000)
      expect(tooMuch.status).toBe(201)
      const refused = await app.call("POST", `/quotes/${tooMuch.body.id}/execute`)
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" })
      expect((await app.call("GET", `/quotes/${tooMuch.body.id}`)).body.status).toBe("PENDING")
      expect(await app.balanceOf(alice.accounts.USD!)).toEqual({ available: 1_000, total: 1_000 })

      const self = await app.quote(alice.accounts.USD!, alice.accounts.USD!, 100)
      expect(self.status).toBe(400)
      expect(self.body.code).toBe("SELF_PAYMENT")

      const once = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 100)
      expect((await app.call("POST", `/quotes/${once.body.id}/execute`)).status).toBe(200)
      const twice = await app.call("POST", `/quotes/${once.body.id}/execute`)
      expect(twice.status).toBe(409)
      expect(twice.body.code).toBe("INVALID_STATE_TRANSITION")

      const late = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 100)
      expect((await app.call("POST", "/sandbox/clock/advance", { seconds: 301 })).status).toBe(200)
      const expired = await app.call("POST", `/quotes/${late.body.id}/execute`)
      expect(expired.status).toBe(400)
      expect(expired.body.code).toBe("QUOTE_EXPIRED")
      await app.waitForStatus(late.body.transactionId, "EXPIRED")
      expect((await app.call("GET", `/quotes/${late.body.id}`)).body.status).toBe("EXPIRED")
    })

    it("executes one quote once under 64 concurrent executes", async () => {
      const alice = await app.newCustomer("Alice Racer")
      const bob = await app.newCustomer("Bob Racer")
      await app.fund(alice.accounts.USD!, 10_000)
      const quoted = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 1_000)
      const answers = await Promise.all(
        Array.from({ length: 64 }, () => app.call("POST", `/quotes/${quoted.body.id}/execute`))
      )
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(63)
      await app.waitForStatus(quoted.body.transactionId, "COMPLETED")
      expect((await app.balanceOf(alice.accounts.USD!)).total).toBe(9_000)
    })

    it("pays out to external accounts by the sandbox suffixes, driven by the sandbox clock", async () => {
      const alice = await app.newCustomer("Alice Payout")
      await app.fund(alice.accounts.USD!, 1_000_000)
      const payout = async (accountNumber: string) => {
        const destination = await app.externalUsd(alice.id, accountNumber)
        const quoted = await app.quote(alice.accounts.USD!, destination, 1_000, { immediatelyExecute: true })
        expect(quoted.status).toBe(201)
        expect(quoted.body.status).toBe("PROCESSING")
        return quoted.body
      }
      const ok = await payout("1234567001")
      const failed = await payout("1234567002")
      const slow = await payout("1234567003")
      const undelivered = await payout("1234567004")
      const returned = await payout("1234567005")
      const cancelled = await payout("1234567006")
      const lost = await payout("1234567007")

      expect(await app.waitForStatus(ok.transactionId, "COMPLETED")).toMatchObject({ paymentRail: "ACH" })
      expect(await app.waitForStatus(failed.transactionId, "FAILED")).toMatchObject({
        failureReason: "QUOTE_EXECUTION_FAILED"
      })
      expect(await app.waitForStatus(undelivered.transactionId, "FAILED")).toMatchObject({
        failureReason: "COUNTERPARTY_POST_TX_FAILED"
      })
      expect(await app.waitForStatus(cancelled.transactionId, "FAILED")).toMatchObject({
        refund: { status: "COMPLETED", reason: "USER_CANCELLATION" }
      })
      expect(await app.waitForStatus(lost.transactionId, "FAILED")).toMatchObject({ refund: { status: "FAILED" } })
      await app.waitForStatus(returned.transactionId, "COMPLETED")
      expect((await app.transactionOf(slow.transactionId)).status).toBe("PROCESSING")

      // Six minutes of the platform's time: the slow payout completes, the returned one comes back.
      expect((await app.call("POST", "/sandbox/clock/advance", { seconds: 361 })).status).toBe(200)
      await app.waitForStatus(slow.transactionId, "COMPLETED")
      expect(await app.waitForStatus(returned.transactionId, "FAILED")).toMatchObject({
        failureReason: "PAYOUT_RETURNED",
        refund: { status: "COMPLETED", reason: "TRANSACTION_FAILED" }
      })
      // Left: the completed ones (001, 003) and the lost one (007); the failed, cancelled and returned came back.
      const balance = await app.balanceOf(alice.accounts.USD!)
      expect(balance).toEqual({ available: 1_000_000 - 3 * 1_000, total: 1_000_000 - 3 * 1_000 })
      for (const total of (await app.postedTotals()).values()) expect(total).toBe(0n)
    })

    it("funds REALTIME_FUNDING quotes through the sandbox payer: instructions, the exact amount, a mismatch", async () => {
      const bob = await app.newCustomer("Bob Realtime")
      const realtime = (currency: string, destination: string, amount: number) =>
        app.call("POST", "/quotes", {
          source: { sourceType: "REALTIME_FUNDING", currency },
          destination: { destinationType: "ACCOUNT", accountId: destination },
          lockedCurrencySide: "RECEIVING",
          lockedCurrencyAmount: amount
        })
      const quoted = await realtime("USD", bob.accounts.EUR!, 5_000)
      expect(quoted.status).toBe(201)
      expect(quoted.body.totalReceivingAmount).toBe(5_000)
      const [instructions] = quoted.body.paymentInstructions
      expect(instructions?.accountOrWalletInfo).toMatchObject({
        accountType: "USD_ACCOUNT",
        routingNumber: "021000021"
      })
      const reference = instructions?.accountOrWalletInfo.reference
      expect(reference).toMatch(/^PR[0-9A-F]{12}$/)
      const pending = await app.transactionOf(quoted.body.transactionId)
      expect(pending).toMatchObject({ type: "INCOMING", direction: "CREDIT", status: "PENDING" })
      expect(pending.reconciliationInstructions?.reference).toBe(reference)

      expect((await app.call("POST", `/quotes/${quoted.body.id}/execute`)).status).toBe(409)
      const wrongCurrency = await app.call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "EUR" })
      expect(wrongCurrency.status).toBe(400)
      expect(wrongCurrency.body).toMatchObject({ code: "INVALID_INPUT" })
      const sent = await app.call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "USD" })
      expect(sent.status).toBe(200)
      expect(sent.body.status).toBe("PROCESSING")
      await app.waitForStatus(quoted.body.transactionId, "COMPLETED")
      expect((await app.balanceOf(bob.accounts.EUR!)).available).toBe(5_000)
      expect((await app.call("POST", "/sandbox/send", { quoteId: quoted.body.id, currencyCode: "USD" })).status).toBe(
        409
      )

      const short = await realtime("USD", bob.accounts.USD!, 2_000)
      const mismatch = await app.call("POST", "/sandbox/send", {
        quoteId: short.body.id,
        currencyCode: "USD",
        currencyAmount: short.body.totalSendingAmount - 1
      })
      expect(mismatch.status).toBe(200)
      expect(mismatch.body).toMatchObject({
        status: "FAILED",
        failureReason: "FUNDING_AMOUNT_MISMATCH",
        refund: { status: "COMPLETED" }
      })
      expect((await app.call("GET", `/quotes/${short.body.id}`)).body.status).toBe("FAILED")
      expect((await app.balanceOf(bob.accounts.USD!)).available).toBe(0)

      const lightning = await realtime("BTC", bob.accounts.USD!, 1_000)
      expect(lightning.status).toBe(201)
      const invoice = lightning.body.paymentInstructions[0]?.accountOrWalletInfo.invoice ?? ""
      expect(LightningDestination.isBolt11Invoice(invoice)).toBe(true)
      expect(invoice.startsWith(`lnbc${lightning.body.totalSendingAmount * 10}n1`)).toBe(true)
      for (const total of (await app.postedTotals()).values()) expect(total).toBe(0n)
    })

    it("keeps the deprecated same-currency transfers: out and in, with the transfer table's outcomes", async () => {
      const alice = await app.newCustomer("Alice Transfers")
      await app.fund(alice.accounts.USD!, 100_000)
      const out = async (accountNumber: string, amount: number) => {
        const destination = await app.externalUsd(alice.id, accountNumber)
        return app.call("POST", "/transfer-out", {
          source: { accountId: alice.accounts.USD },
          destination: { accountId: destination },
          amount
        })
      }
      const sent = await out("2222222001", 10_000)
      expect(sent.status).toBe(201)
      expect(sent.headers.get("deprecation")).toBe("true")
      expect(sent.body).toMatchObject({ type: "OUTGOING", status: "PROCESSING" })
      await app.waitForStatus(sent.body.id, "COMPLETED")

      const broke = await out("2222222002", 1_000)
      expect(await app.waitForStatus(broke.body.id, "FAILED")).toMatchObject({ failureReason: "INSUFFICIENT_FUNDS" })
      const slow = await out("2222222005", 1_000)
      expect((await app.transactionOf(slow.body.id)).status).toBe("PROCESSING")
      expect((await app.call("POST", "/sandbox/clock/advance", { seconds: 31 })).status).toBe(200)
      await app.waitForStatus(slow.body.id, "FAILED")
      expect((await app.balanceOf(alice.accounts.USD!)).available).toBe(90_000)

      const source = await app.externalUsd(alice.id, "3333333001")
      const pulled = await app.call("POST", "/transfer-in", {
        source: { accountId: source },
        destination: { accountId: alice.accounts.USD },
        amount: 5_000
      })
      expect(pulled.status).toBe(201)
      expect(pulled.body).toMatchObject({ type: "INCOMING", direction: "DEBIT" })
      await app.waitForStatus(pulled.body.id, "COMPLETED")
      expect((await app.balanceOf(alice.accounts.USD!)).available).toBe(95_000)

      const bounced = await app.call("POST", "/transfer-in", {
        source: { accountId: await app.externalUsd(alice.id, "3333333003") },
        destination: { accountId: alice.accounts.USD },
        amount: 5_000
      })
      expect(await app.waitForStatus(bounced.body.id, "FAILED")).toMatchObject({ failureReason: "ACCOUNT_INVALID" })
      expect((await app.balanceOf(alice.accounts.USD!)).total).toBe(95_000)

      const noAmount = await app.call("POST", "/transfer-in", {
        source: { accountId: source },
        destination: { accountId: alice.accounts.USD }
      })
      expect(noAmount.status).toBe(400)
      expect(noAmount.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "amount" }] } })
      const converting = await app.call("POST", "/transfer-out", {
        source: { accountId: alice.accounts.EUR },
        destination: { accountId: source },
        amount: 100
      })
      expect(converting.status).toBe(400)
      for (const total of (await app.postedTotals()).values()) expect(total).toBe(0n)
    })

    it("lists transactions newest first, filtered and in keyset pages", async () => {
      const alice = await app.newCustomer("Alice Lister")
      const bob = await app.newCustomer("Bob Lister")
      await app.fund(alice.accounts.USD!, 100_000)
      const ids: Array<string> = []
      for (let index = 0; index < 5; index++) {
        const quoted = await app.quote(alice.accounts.USD!, bob.accounts.USD!, 100 + index)
        ids.push(quoted.body.transactionId)
      }
      const first = await app.call("GET", `/transactions?customerId=${alice.id}&limit=2`)
      expect(first.status).toBe(200)
      expect(first.body.data.map((row: Body) => row.id)).toEqual([ids[4], ids[3]])
      expect(first.body.hasMore).toBe(true)
      expect(first.body.totalCount).toBeUndefined()
      const second = await app.call(
        "GET",
        `/transactions?customerId=${alice.id}&limit=2&cursor=${first.body.nextCursor}`
      )
      expect(second.body.data.map((row: Body) => row.id)).toEqual([ids[2], ids[1]])
      const ascending = await app.call("GET", `/transactions?customerId=${alice.id}&sortOrder=asc&status=PENDING`)
      expect(ascending.body.data.map((row: Body) => row.id)).toEqual(ids)
      const byAccount = await app.call("GET", `/transactions?accountIdentifier=${bob.accounts.USD}&limit=100`)
      expect(byAccount.body.data.map((row: Body) => row.id)).toEqual([...ids].reverse())
      const missing = await app.call("GET", "/transactions/Transaction:00000000-0000-4000-8000-000000000000")
      expect(missing.status).toBe(404)
      expect(missing.body.code).toBe("TRANSACTION_NOT_FOUND")
    })
  }
)
