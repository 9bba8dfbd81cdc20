import { expect, it } from "vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import { Ledger, SystemAccounts } from "@payrail/core"
import { describeOnEveryStore } from "./OnEveryStore.js"
import { type Destination, lifetimeOf, Model, type ModelQuote, type Source } from "./PaymentModel.js"

const currencies = ["USD", "EUR", "MXN"] as const
const suffixes = ["000", "001", "002", "003", "004", "005", "006", "007"] as const

const internal = fc.record({
  type: fc.constant("internal" as const),
  customer: fc.constantFrom(0, 1),
  currency: fc.constantFrom(...currencies)
})
const external = fc.record({ type: fc.constant("external" as const), suffix: fc.constantFrom(...suffixes) })

/** One step of a random history of payments. */
const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("quote" as const),
      source: fc.oneof({ weight: 3, arbitrary: internal }, { weight: 1, arbitrary: external }),
      destination: fc.oneof(internal, external),
      side: fc.constantFrom("SENDING" as const, "RECEIVING" as const),
      amount: fc.integer({ min: 100, max: 5_000 }),
      // Used for payouts only: the account's first rail (ACH) when absent.
      rail: fc.constantFrom(undefined, "ACH", "WIRE", "RTP", "FEDNOW"),
      immediately: fc.boolean()
    })
  },
  // Mostly one of the latest quotes (counting back from the last), sometimes any.
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("execute" as const), back: fc.oneof(fc.nat(2), fc.nat(60)) })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      minutes: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom(10, 30))
    })
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("settle" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("fund" as const),
      customer: fc.constantFrom(0, 1),
      currency: fc.constantFrom(...currencies),
      amount: fc.integer({ min: 1_000, max: 20_000 })
    })
  }
)
type Step = typeof step extends fc.Arbitrary<infer A> ? A : never

// Runs of up to 30 steps: 30 on memory, 8 on the SQL stores, whose every step and check costs round trips (about
// 10 seconds each).
const numRuns: Record<string, number> = { memory: 30, PGlite: 8, PostgreSQL: 8 }

describeOnEveryStore("payment properties", "payment_properties", {}, (app, store) => {
  /**
   * The world of one run: a platform of its own (so that no run sees another's money), two customers with USD, EUR
   * and MXN accounts, and eight external USD accounts, one per sandbox suffix.
   */
  const cast = async () => {
    const platform = await app.newPlatform()
    const customers = [await platform.newCustomer("Ada Model"), await platform.newCustomer("Ben Model")]
    const externals = new Map<string, string>()
    for (const suffix of suffixes) {
      externals.set(suffix, await platform.externalUsd(customers[0]!.id, `4400112${suffix}`))
    }
    return { platform, customers, externals }
  }
  type Cast = Awaited<ReturnType<typeof cast>>

  const ledger = <A, E>(use: (ledger: Effect.Effect.Success<typeof Ledger.Ledger>) => Effect.Effect<A, E>) =>
    app.run(Effect.flatMap(Ledger.Ledger, use))

  const systemAccounts = (people: Cast) =>
    currencies.flatMap((currency) =>
      SystemAccounts.kinds.map((kind) => SystemAccounts.accountId(people.platform.platform.id, kind, currency))
    )

  // The ledger invariants, and the model's balances and statuses, as the API and the ledger show them now.
  const checkInvariants = async (model: Model, people: Cast) => {
    const { platform } = people
    const platformId = platform.platform.id
    for (const [currency, total] of await platform.postedTotals()) expect([currency, total]).toEqual([currency, 0n])
    const internalAccounts = people.customers.flatMap((customer) => currencies.map((code) => customer.accounts[code]!))
    for (const accountId of internalAccounts) {
      const [balance, fromEntries] = await ledger((ledger) =>
        Effect.all([ledger.balance(platformId, accountId), ledger.reconcile(platformId, accountId)])
      )
      expect(balance).toEqual(fromEntries)
      expect(Ledger.available(balance) >= 0n, `available of ${accountId}`).toBe(true)
      expect([accountId, await platform.balanceOf(accountId)]).toEqual([accountId, model.balanceOf(accountId)])
    }
    for (const accountId of systemAccounts(people)) {
      const pair = await ledger((ledger) =>
        Effect.either(Effect.all([ledger.balance(platformId, accountId), ledger.reconcile(platformId, accountId)]))
      )
      // A system account is opened with the first movement in its currency.
      if (Either.isRight(pair)) expect(pair.right[0]).toEqual(pair.right[1])
    }
    for (const quote of model.quotes) {
      const [stored, transaction] = await Promise.all([
        platform.call("GET", `/quotes/${quote.id}`),
        platform.transactionOf(quote.transactionId)
      ])
      expect([quote.id, stored.body.status, transaction.status]).toEqual([quote.id, quote.status, quote.status])
      expect([quote.id, transaction.failureReason, transaction.refund]).toEqual([
        quote.id,
        quote.failureReason,
        quote.refund === undefined ? undefined : expect.objectContaining(quote.refund)
      ])
    }
  }

  const sourceOf = (people: Cast, choice: Extract<Step, { kind: "quote" }>["source"]): Source =>
    choice.type === "internal"
      ? { type: "internal", accountId: people.customers[choice.customer]!.accounts[choice.currency]! }
      : { type: "pull", accountId: people.externals.get(choice.suffix)!, suffix: choice.suffix }

  const destinationOf = (people: Cast, step: Extract<Step, { kind: "quote" }>): Destination =>
    step.destination.type === "internal"
      ? {
          type: "internal",
          accountId: people.customers[step.destination.customer]!.accounts[step.destination.currency]!
        }
      : {
          type: "payout",
          accountId: people.externals.get(step.destination.suffix)!,
          suffix: step.destination.suffix,
          ...(step.rail === undefined ? {} : { rail: step.rail })
        }

  const createQuote = async (model: Model, people: Cast, step: Extract<Step, { kind: "quote" }>) => {
    const source = sourceOf(people, step.source)
    const destination = destinationOf(people, step)
    const answer = await people.platform.call("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: source.accountId },
      destination: {
        destinationType: "ACCOUNT",
        accountId: destination.accountId,
        ...(destination.type === "payout" && destination.rail !== undefined ? { paymentRail: destination.rail } : {})
      },
      lockedCurrencySide: step.side,
      lockedCurrencyAmount: step.amount,
      ...(step.immediately ? { immediatelyExecute: true } : {})
    })
    if (source.accountId === destination.accountId) {
      expect([answer.status, answer.body.code]).toEqual([400, "SELF_PAYMENT"])
      return
    }
    if (source.type === "pull" && destination.type === "payout") {
      expect([answer.status, answer.body.code]).toEqual([400, "INVALID_INPUT"])
      return
    }
    const created = answer.body
    if (answer.status !== 201) {
      // Only an immediate execute that the source cannot cover refuses a valid quote; nothing is kept of it.
      expect([step.immediately, source.type, answer.status, created.code]).toEqual([
        true,
        "internal",
        400,
        "INSUFFICIENT_FUNDS"
      ])
      // With SENDING locked the total is the amount itself, so the model can tell it did not fit.
      if (step.side === "SENDING") expect(model.balanceOf(source.accountId).available).toBeLessThan(step.amount)
      return
    }
    expect(step.side === "SENDING" ? created.totalSendingAmount : created.totalReceivingAmount).toBe(step.amount)
    if (created.sendingCurrency.code === created.receivingCurrency.code) {
      expect([created.totalSendingAmount, created.feesIncluded]).toEqual([created.totalReceivingAmount, 0])
    }
    const quote: ModelQuote = {
      id: created.id,
      transactionId: created.transactionId,
      source,
      destination,
      sendingMinor: created.totalSendingAmount,
      receivingMinor: created.totalReceivingAmount,
      createdAt: model.now,
      lifetimeSeconds: lifetimeOf(destination),
      status: "PENDING"
    }
    expect(Date.parse(created.expiresAt) - Date.parse(String(created.createdAt))).toBe(quote.lifetimeSeconds * 1000)
    model.quotes.push(quote)
    if (step.immediately) {
      expect(model.execute(quote)).toEqual({ status: 200 })
      expect(created.status).toBe(quote.status)
    } else {
      expect(created.status).toBe("PENDING")
    }
  }

  const run = async (model: Model, people: Cast, step: Step) => {
    switch (step.kind) {
      case "quote":
        return createQuote(model, people, step)
      case "execute": {
        const quote = model.quotes[model.quotes.length - 1 - (step.back % Math.max(model.quotes.length, 1))]
        if (quote === undefined) return
        // The model decides before the call: an accepted execute reserves in the model too.
        const expected = model.execute(quote)
        const answer = await people.platform.call("POST", `/quotes/${quote.id}/execute`)
        expect([quote.id, answer.status, answer.status === 200 ? undefined : answer.body.code]).toEqual([
          quote.id,
          expected.status,
          expected.status === 200 ? undefined : expected.code
        ])
        return
      }
      case "advance":
        model.now += step.minutes * 60
        return people.platform.advance(step.minutes * 60)
      case "settle":
        model.settle()
        return app.settle()
      case "fund": {
        const accountId = people.customers[step.customer]!.accounts[step.currency]!
        model.fund(accountId, step.amount)
        return people.platform.fund(accountId, step.amount)
      }
    }
  }

  it("keeps the ledger balanced, every balance reconciled and every quote agreeing with its transaction, step by step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30, size: "max" }), async (steps) => {
        const people = await cast()
        const failuresBefore = app.jobs.failures.length
        const model = new Model()
        const [ada, ben] = people.customers
        for (const [accountId, amount] of [
          [ada!.accounts.USD!, 30_000],
          [ada!.accounts.EUR!, 30_000],
          [ada!.accounts.MXN!, 300_000],
          [ben!.accounts.USD!, 5_000]
        ] as const) {
          model.fund(accountId, amount)
          await people.platform.fund(accountId, amount)
        }
        await checkInvariants(model, people)
        for (const each of steps) {
          await run(model, people, each)
          await checkInvariants(model, people)
        }
        // Past every lifetime and every delay: each payment ends, and no reservation stays open.
        model.now += 60 * 60
        await people.platform.advance(60 * 60)
        model.settle()
        await app.settle()
        await checkInvariants(model, people)
        for (const quote of model.quotes) expect(["COMPLETED", "FAILED", "EXPIRED"]).toContain(quote.status)
        for (const accountId of [
          ...people.customers.flatMap((customer) => Object.values(customer.accounts)),
          ...systemAccounts(people)
        ]) {
          const balance = await ledger((ledger) =>
            Effect.either(ledger.reconcile(people.platform.platform.id, accountId))
          )
          if (Either.isRight(balance)) {
            expect([accountId, balance.right.pendingDebitsMinor, balance.right.pendingCreditsMinor]).toEqual([
              accountId,
              0n,
              0n
            ])
          }
        }
        expect(app.jobs.failures.slice(failuresBefore)).toEqual([])
      }),
      {
        numRuns: numRuns[store] ?? 5,
        // A payout returned before any check saw it delivered (the clock passed both): it once stayed PROCESSING.
        examples: [
          [
            [
              {
                kind: "quote" as const,
                source: { type: "internal", customer: 0, currency: "USD" },
                destination: { type: "external", suffix: "005" },
                side: "SENDING",
                amount: 1_000,
                rail: undefined,
                immediately: true
              },
              { kind: "advance", minutes: 1 },
              { kind: "settle" }
            ]
          ]
        ]
      }
    )
    expect(app.jobs.claimed()).toBeGreaterThan(0)
  }, 600_000)
})
