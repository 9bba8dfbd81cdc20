import { expect, it } from "vitest"
import { Effect, Either } from "effect"
import { type Quote, Quotes } from "@payrail/core"
import { expectBalancedBooks } from "./LedgerChecks.js"
import { type Body } from "./PaymentApp.js"
import { describeOnEveryStore } from "./OnEveryStore.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describeOnEveryStore("payment races", "payment_races", { running: true }, (app) => {
  // Each account's balance is what its entries say, with no reservation left open; the books balance.
  const expectNothingReserved = async (accounts: ReadonlyArray<string>) => {
    await expectBalancedBooks(app, app, accounts, { systemCurrencies: [] })
    // No job failed on the way: no settlement or expiry had to be retried.
    expect(app.jobs.failures).toEqual([])
  }

  // Exactly one of the execute and the expiry won the quote, as its transaction and itself show once settled.
  const expectOneWinner = async (quote: Body, executed: boolean) => {
    if (executed) await app.waitForStatus(quote.transactionId, "COMPLETED")
    else {
      expect(await app.waitForStatus(quote.transactionId, "EXPIRED")).toMatchObject({
        failureReason: "QUOTE_EXPIRED"
      })
    }
    expect((await app.call("GET", `/quotes/${quote.id}`)).body.status).toBe(executed ? "COMPLETED" : "EXPIRED")
  }

  // Quotes and executes `amounts` from `source` concurrently (destinations in turn), while another fiber keeps
  // reading the source's balance; answers each execute's answer with its quote, and the lowest balance seen.
  const drain = async (source: string, destinations: ReadonlyArray<string>, amounts: ReadonlyArray<number>) => {
    let racing = true
    let lowest = Number.POSITIVE_INFINITY
    const watcher = (async () => {
      while (racing) {
        lowest = Math.min(lowest, (await app.balanceOf(source)).available)
        await sleep(1)
      }
    })()
    const answers = await Promise.all(
      amounts.map(async (amount, index) => {
        const destination = destinations[index % destinations.length]!
        const quoted = await app.quote(source, destination, amount)
        expect(quoted.status).toBe(201)
        expect(quoted.body.totalSendingAmount).toBe(amount)
        const executed = await app.call("POST", `/quotes/${quoted.body.id}/execute`)
        return { destination, quote: quoted.body, status: executed.status, body: executed.body }
      })
    )
    racing = false
    await watcher
    return { answers, lowest }
  }

  const expectSettled = async (
    source: string,
    funded: number,
    answers: ReadonlyArray<{ readonly quote: Body; readonly status: number; readonly body: Body }>
  ) => {
    const succeeded = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status !== 200)
    for (const answer of refused) {
      expect([answer.status, answer.body.code]).toEqual([400, "INSUFFICIENT_FUNDS"])
      expect((await app.call("GET", `/quotes/${answer.quote.id}`)).body.status).toBe("PENDING")
    }
    const spent = succeeded.reduce((sum, answer) => sum + answer.quote.totalSendingAmount, 0)
    expect(spent).toBeLessThanOrEqual(funded)
    for (const answer of succeeded) await app.waitForStatus(answer.quote.transactionId, "COMPLETED")
    expect(await app.balanceOf(source)).toEqual({ available: funded - spent, total: funded - spent })
    await expectNothingReserved([source])
    return { succeeded, refused, spent }
  }

  it("lets exactly as many of 100 concurrent quote+executes through as the account holds, never below zero", async () => {
    const alice = await app.newCustomer("Alice Drained")
    const bob = await app.newCustomer("Bob Same Currency")
    const carol = await app.newCustomer("Carol Euro")
    const dave = await app.newCustomer("Dave Peso")
    const payout = await app.externalUsd(alice.id, "9876543001")
    await app.fund(alice.accounts.USD!, 10_000)
    // 33 payments of 300 fit in 10,000; same currency, across currencies (SENDING locked: the total is 300
    // whatever the rate) and a payout.
    const { answers, lowest } = await drain(
      alice.accounts.USD!,
      [bob.accounts.USD!, carol.accounts.EUR!, dave.accounts.MXN!, payout],
      Array.from({ length: 100 }, () => 300)
    )
    expect(lowest).toBeGreaterThanOrEqual(0)
    const { succeeded, refused } = await expectSettled(alice.accounts.USD!, 10_000, answers)
    expect(succeeded).toHaveLength(33)
    expect(refused).toHaveLength(67)
    for (const payee of [bob.accounts.USD!, carol.accounts.EUR!, dave.accounts.MXN!]) {
      const received = answers
        .filter((answer) => answer.status === 200 && answer.destination === payee)
        .reduce((sum, answer) => sum + answer.quote.totalReceivingAmount, 0)
      expect(await app.balanceOf(payee)).toEqual({ available: received, total: received })
    }
  })

  it("refuses only payments that no longer fit when 100 payments of different amounts race", async () => {
    const alice = await app.newCustomer("Alice Varied")
    const bob = await app.newCustomer("Bob Varied")
    await app.fund(alice.accounts.USD!, 12_345)
    const amounts = Array.from({ length: 100 }, (_, index) => 100 + ((index * 37) % 250))
    const { answers, lowest } = await drain(alice.accounts.USD!, [bob.accounts.USD!, bob.accounts.EUR!], amounts)
    expect(lowest).toBeGreaterThanOrEqual(0)
    const { refused, spent } = await expectSettled(alice.accounts.USD!, 12_345, answers)
    // The available balance only fell during the race, so each refused payment does not fit what is left either.
    expect(refused.length).toBeGreaterThan(0)
    for (const answer of refused) expect(answer.quote.totalSendingAmount).toBeGreaterThan(12_345 - spent)
  })

  it("executes or expires each quote, never both, when executes race the sandbox clock passing expiry", async () => {
    const alice = await app.newCustomer("Alice Late")
    const bob = await app.newCustomer("Bob Late")
    await app.fund(alice.accounts.USD!, 1_000_000)
    const outcomes: Array<{ readonly quote: Body; readonly status: number; readonly body: Body }> = []
    for (let round = 0; round < 3; round++) {
      const quotes = await Promise.all(
        Array.from({ length: 20 }, (_, index) => app.quote(alice.accounts.USD!, bob.accounts.USD!, 100 + index))
      )
      // The executes start a millisecond apart and the clock passes every quote's expiry (5 minutes) in the
      // middle of them: early executes win, late ones find the quote expired, and some race the expiry job.
      const [answers] = await Promise.all([
        Promise.all(
          quotes.map(async (quoted, index) => {
            await sleep(index)
            const executed = await app.call("POST", `/quotes/${quoted.body.id}/execute`)
            return { quote: quoted.body, status: executed.status, body: executed.body }
          })
        ),
        sleep(5 + round * 4).then(() => app.advance(301))
      ])
      outcomes.push(...answers)
    }
    let spent = 0
    for (const { quote, status, body } of outcomes) {
      if (status === 200) spent += quote.totalSendingAmount
      else expect([status, body.code]).toEqual([400, "QUOTE_EXPIRED"])
      await expectOneWinner(quote, status === 200)
    }
    expect(await app.balanceOf(alice.accounts.USD!)).toEqual({
      available: 1_000_000 - spent,
      total: 1_000_000 - spent
    })
    expect(await app.balanceOf(bob.accounts.USD!)).toEqual({ available: spent, total: spent })
    await expectNothingReserved([alice.accounts.USD!, bob.accounts.USD!])
  })

  it("lets exactly one of an execute and the expiry job win a quote they reach at once", async () => {
    const alice = await app.newCustomer("Alice Contested")
    const bob = await app.newCustomer("Bob Contested")
    await app.fund(alice.accounts.USD!, 1_000_000)
    const quotes = await Promise.all(
      Array.from({ length: 30 }, (_, index) => app.quote(alice.accounts.USD!, bob.accounts.USD!, 1_000 + index))
    )
    // Past every expiry in the platform's time the worker runs the expiry jobs at once; meanwhile each quote is
    // executed by a caller still reading real time (as a request that authenticated just before the advance
    // does), so the execute passes its own expiry check and meets the job on the quote's status.
    await app.advance(301)
    const executes = await Promise.all(
      quotes.map(async ({ body: quote }, index) => {
        await sleep(index % 10)
        const outcome = await app.run(
          Effect.either(
            Effect.flatMap(Quotes.Quotes, (quotes) => quotes.execute(app.platform, quote.id as Quote.QuoteId))
          )
        )
        return { quote, outcome }
      })
    )
    let spent = 0
    for (const { quote, outcome } of executes) {
      if (Either.isRight(outcome)) spent += quote.totalSendingAmount
      else {
        // Whether the job had finished when the execute read the quote or won the compare-and-set after, the
        // execute answers that the quote expired.
        const refused = outcome.left
        expect([refused._tag, refused._tag === "QuoteExpired" && refused.details]).toEqual([
          "QuoteExpired",
          { quoteId: quote.id, expiresAt: quote.expiresAt }
        ])
      }
      await expectOneWinner(quote, Either.isRight(outcome))
    }
    expect(await app.balanceOf(alice.accounts.USD!)).toEqual({
      available: 1_000_000 - spent,
      total: 1_000_000 - spent
    })
    expect(await app.balanceOf(bob.accounts.USD!)).toEqual({ available: spent, total: spent })
    await expectNothingReserved([alice.accounts.USD!, bob.accounts.USD!])
  })
})
