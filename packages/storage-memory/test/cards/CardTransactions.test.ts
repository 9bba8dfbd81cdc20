import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer, Option, Schema, TestClock } from "effect"
import {
  Card,
  CardJobs,
  CardSimulation,
  type CardTransaction,
  CardTransactions,
  Customers,
  Domain,
  Ids,
  InternalAccount,
  InternalAccountRepo,
  type Job,
  Jobs,
  Outbox,
  Platforms,
  SandboxFunding,
  type Platform
} from "@payrail/core"
import { Sandbox } from "@payrail/sandbox"
import { CardTransactionFixtures } from "@payrail/storage-testkit"
import { WalletAuth } from "@payrail/wallet-auth"
import { StorageMemory } from "../../src/index.js"

const services = Domain.layer.pipe(
  Layer.provideMerge(StorageMemory.layer),
  Layer.provide(Sandbox.layer),
  Layer.provide(WalletAuth.layerEphemeral),
  Layer.provide(Ids.layerDeterministic)
)

const decodeAuthorization = Schema.decodeUnknownSync(CardSimulation.SimulatedAuthorization)
const purchase = (amount: number, descriptor = "Coffee Shop", currency = "USD") =>
  decodeAuthorization({ amount, currency: { code: currency }, merchant: { descriptor, mcc: "5814", country: "US" } })

interface Setup {
  readonly platform: Platform.Platform
  readonly card: Card.Card
  readonly funding: string
}

/** A sandbox platform, a customer whose USD account holds `funded`, and an active card on that account. */
const setup = (funded: number, cardFields: Parameters<typeof CardTransactionFixtures.insertActiveCard>[3] = {}) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(Date.UTC(2026, 4, 1, 12))
    const platform = yield* (yield* Platforms.Platforms).create({ name: "Cards", environment: "SANDBOX" })
    const customer = yield* (yield* Customers.Customers).create(platform, {
      customerType: "INDIVIDUAL",
      fullName: "Ada Lovelace"
    })
    const accounts = yield* (yield* InternalAccountRepo.InternalAccountRepo).list(
      platform.id,
      { owner: "customers", customerId: customer.id, currency: "USD", type: "INTERNAL_FIAT" },
      { limit: 10, after: Option.none() }
    )
    const funding = accounts.data[0]?.id ?? InternalAccount.InternalAccountId.make("InternalAccount:missing")
    if (funded > 0) {
      yield* (yield* SandboxFunding.SandboxFunding).fund(platform, funding, {
        amountMinor: BigInt(funded),
        idempotencyKey: Option.none()
      })
    }
    const card = yield* CardTransactionFixtures.insertActiveCard(platform.id, customer.id, funding, cardFields)
    return { platform, card, funding } satisfies Setup
  })

const service = CardTransactions.CardTransactions
const ledger = (s: Setup, available: number, pendingDebits: number) =>
  CardTransactionFixtures.checkLedger(s.platform.id, s.funding, { available, pendingDebits })

const authorize = (s: Setup, amount: number, descriptor?: string) =>
  Effect.flatMap(service, (cards) =>
    cards.authorize(s.platform, s.card.id, "AUTHORIZATION", purchase(amount, descriptor))
  )

const clear = (s: Setup, row: CardTransaction.CardTransaction, amount: number) =>
  Effect.flatMap(service, (cards) => cards.clear(s.platform, s.card.id, { cardTransactionId: row.id, amount }))

const declineOf = <A, E extends { readonly code: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error.code)

/** The `CARD_TRANSACTION.*` events of `id`, in order: their types and statuses. */
const eventsOf = (id: string) =>
  Effect.map(
    Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(1000)),
    (events) =>
      events
        .filter((event) => event.type.startsWith("CARD_TRANSACTION.") && event.data["id"] === id)
        .map((event) => ({ type: event.type, status: event.data["status"], data: event.data }))
  )

describe("CardTransactions: authorizations", () => {
  it.effect("an authorization holds its amount, answers the row and sends CARD_TRANSACTION.AUTHORIZED", () =>
    Effect.gen(function* () {
      const s = yield* setup(10_000)
      const row = yield* authorize(s, 2_500)
      expect(row).toMatchObject({
        type: "CARD",
        kind: "AUTHORIZATION",
        status: "AUTHORIZED",
        direction: "DEBIT",
        cardId: s.card.id,
        accountId: s.funding,
        authorizedAmount: { amount: 2_500 },
        settledAmount: { amount: 0 },
        pullSummary: { count: 1, pendingCount: 0, totalAmount: { amount: 2_500 } }
      })
      expect(row.issuerTransactionToken).toMatch(/^itt_[0-9a-f]{32}$/)
      const stored = yield* CardTransactionFixtures.stored(s.platform.id, row.id)
      expect(stored.holdAmount).toBe(2_500)
      expect(stored.holdPostingId).toBeDefined()
      const events = yield* eventsOf(row.id)
      expect(events.map((event) => event.type)).toEqual(["CARD_TRANSACTION.AUTHORIZED"])
      expect(events[0]?.data).toMatchObject({ id: row.id, cardId: s.card.id, authorizedAmount: { amount: 2_500 } })
      expect((yield* (yield* service).get(s.platform, row.id)).id).toBe(row.id)
      yield* ledger(s, 7_500, 2_500)
    }).pipe(Effect.provide(services))
  )

  it.effect("declines record nothing: frozen, provisioning, closed, above the limit, short funds, magic 002/003", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000, { maxSpendPerTransaction: 600 })
      expect((yield* authorize(s, 600)).status).toBe("AUTHORIZED")
      expect(yield* declineOf(authorize(s, 601))).toBe("TRANSACTION_SIZE_LIMIT_EXCEEDED")
      expect(yield* declineOf(authorize(s, 500))).toBe("INSUFFICIENT_FUNDS")
      expect(yield* declineOf(authorize(s, 10, "Store 002"))).toBe("INSUFFICIENT_FUNDS")
      expect(yield* declineOf(authorize(s, 10, "Store 003"))).toBe("CARD_PAUSED")
      const wrongCurrency = yield* Effect.flip(
        (yield* service).authorize(s.platform, s.card.id, "AUTHORIZATION", purchase(10, "Shop", "EUR"))
      )
      expect(wrongCurrency).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "currency.code" }] } })
      const frozen = yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "FROZEN" })
      expect(yield* declineOf(authorize({ ...s, card: frozen }, 10))).toBe("CARD_PAUSED")
      yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "PROCESSING" })
      expect(yield* declineOf(authorize(s, 10))).toBe("CARD_NOT_ACTIVE")
      yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "CLOSED" })
      expect(yield* declineOf(authorize(s, 10))).toBe("CARD_NOT_ACTIVE")
      const page = yield* (yield* service).list(
        s.platform,
        { cardId: s.card.id, sortOrder: "desc" },
        {
          limit: 100,
          after: Option.none()
        }
      )
      expect(page.data).toHaveLength(1)
      yield* ledger(s, 400, 600)
    }).pipe(Effect.provide(services))
  )

  it.effect("magic 005 keeps the pull pending until the job confirms it 30 s later; 006 is EXCEPTION at once", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const delayed = yield* authorize(s, 300, "Delayed 005")
      expect(delayed.pullSummary.pendingCount).toBe(1)
      const jobs = yield* Jobs.Jobs
      const pulls: Array<Job.Job> = []
      const runDue = Effect.gen(function* () {
        const claimed = yield* jobs.claim({ limit: 10, now: yield* DateTime.now, lease: Duration.minutes(1) })
        for (const held of claimed) {
          if (held.job.kind === "cards.pull") {
            yield* (yield* CardJobs.CardJobs).pull(held.job)
            pulls.push(held.job)
          }
          yield* jobs.complete(held)
        }
        return claimed.length
      })
      expect(yield* runDue).toBe(0)
      yield* TestClock.adjust("30 seconds")
      expect(yield* runDue).toBe(1)
      // Run twice (a worker's lease ran out): nothing more changes.
      for (const job of pulls) yield* (yield* CardJobs.CardJobs).pull(job)
      const confirmed = yield* (yield* service).get(s.platform, delayed.id)
      expect(confirmed).toMatchObject({ status: "AUTHORIZED", pullSummary: { pendingCount: 0, count: 1 } })
      expect((yield* eventsOf(delayed.id)).map((event) => event.data["pullSummary"])).toMatchObject([
        { pendingCount: 1 },
        { pendingCount: 0 }
      ])
      const failed = yield* authorize(s, 200, "Fails 006")
      expect(failed).toMatchObject({ status: "EXCEPTION", pullSummary: { count: 1, totalAmount: { amount: 0 } } })
      expect((yield* CardTransactionFixtures.stored(s.platform.id, failed.id)).holdAmount).toBe(0)
      expect((yield* eventsOf(failed.id)).map((event) => event.type)).toEqual(["CARD_TRANSACTION.EXCEPTION"])
      yield* ledger(s, 700, 300)
    }).pipe(Effect.provide(services))
  )

  it.effect("of 50 concurrent authorizations against a balance for 10, exactly 10 are approved", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const outcomes = yield* Effect.forEach(Array.from({ length: 50 }), () => Effect.either(authorize(s, 100)), {
        concurrency: "unbounded"
      })
      expect(outcomes.filter((outcome) => outcome._tag === "Right")).toHaveLength(10)
      for (const outcome of outcomes) {
        if (outcome._tag === "Left") expect(outcome.left.code).toBe("INSUFFICIENT_FUNDS")
      }
      yield* ledger(s, 0, 1_000)
    }).pipe(Effect.provide(services))
  )

  it.effect("balance inquiry answers the available balance and declines as an authorization would", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      yield* authorize(s, 250)
      const inquiry = yield* (yield* service).balanceInquiry(s.platform, s.card.id, {
        merchant: { descriptor: "ATM" }
      })
      expect(inquiry).toMatchObject({ cardId: s.card.id, availableBalance: { amount: 750, currency: { code: "USD" } } })
      yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "FROZEN" })
      expect(
        yield* declineOf((yield* service).balanceInquiry(s.platform, s.card.id, { merchant: { descriptor: "ATM" } }))
      ).toBe("CARD_PAUSED")
    }).pipe(Effect.provide(services))
  )
})

describe("CardTransactions: clearings", () => {
  it.effect("equal settles; below is PARTIALLY_SETTLED with the rest held, then a second clearing settles", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const exact = yield* authorize(s, 200)
      expect(yield* clear(s, exact, 200)).toMatchObject({
        status: "SETTLED",
        settledAmount: { amount: 200 },
        settlementSummary: { count: 1, totalAmount: { amount: 200 } }
      })
      const split = yield* authorize(s, 300)
      const partial = yield* clear(s, split, 100)
      expect(partial).toMatchObject({ status: "PARTIALLY_SETTLED", settledAmount: { amount: 100 } })
      expect((yield* CardTransactionFixtures.stored(s.platform.id, split.id)).holdAmount).toBe(200)
      yield* ledger(s, 500, 200)
      const done = yield* clear(s, split, 200)
      expect(done).toMatchObject({
        status: "SETTLED",
        settledAmount: { amount: 300 },
        settlementSummary: { count: 2, totalAmount: { amount: 300 } },
        pullSummary: { totalAmount: { amount: 300 } }
      })
      expect((yield* eventsOf(split.id)).map((event) => event.status)).toEqual([
        "AUTHORIZED",
        "PARTIALLY_SETTLED",
        "SETTLED"
      ])
      expect((yield* Effect.flip(clear(s, split, 10))).code).toBe("INVALID_STATE_TRANSITION")
      yield* ledger(s, 500, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("above the hold pulls the difference, or leaves EXCEPTION when the account cannot cover it", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const tip = yield* authorize(s, 100)
      expect(yield* clear(s, tip, 150)).toMatchObject({
        status: "SETTLED",
        settledAmount: { amount: 150 },
        pullSummary: { count: 2, totalAmount: { amount: 150 } }
      })
      yield* ledger(s, 850, 0)
      const big = yield* authorize(s, 800)
      const short = yield* clear(s, big, 900)
      expect(short).toMatchObject({
        status: "EXCEPTION",
        settledAmount: { amount: 900 },
        pullSummary: { count: 2, totalAmount: { amount: 800 } }
      })
      expect((yield* CardTransactionFixtures.stored(s.platform.id, big.id)).holdAmount).toBe(0)
      yield* ledger(s, 50, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("zero expires: EXPIRED with the hold released, or SETTLED when part had settled", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const unused = yield* authorize(s, 400)
      expect(yield* clear(s, unused, 0)).toMatchObject({
        status: "EXPIRED",
        pullSummary: { totalAmount: { amount: 0 } }
      })
      expect((yield* CardTransactionFixtures.stored(s.platform.id, unused.id)).holdAmount).toBe(0)
      const part = yield* authorize(s, 400)
      yield* clear(s, part, 100)
      expect(yield* clear(s, part, 0)).toMatchObject({ status: "SETTLED", settledAmount: { amount: 100 } })
      yield* ledger(s, 900, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("an advice moves the hold to the new total; short funds decline and change nothing", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const row = yield* authorize(s, 300)
      const advise = (amount: number) =>
        Effect.flatMap(service, (cards) => cards.advise(s.platform, s.card.id, { cardTransactionId: row.id, amount }))
      expect(yield* advise(500)).toMatchObject({ status: "AUTHORIZED", authorizedAmount: { amount: 500 } })
      yield* ledger(s, 500, 500)
      expect(yield* declineOf(advise(1_200))).toBe("INSUFFICIENT_FUNDS")
      yield* ledger(s, 500, 500)
      expect(yield* advise(200)).toMatchObject({
        authorizedAmount: { amount: 200 },
        pullSummary: { totalAmount: { amount: 200 } }
      })
      yield* clear(s, row, 200)
      expect((yield* Effect.flip(advise(300))).code).toBe("INVALID_STATE_TRANSITION")
      yield* ledger(s, 800, 0)
    }).pipe(Effect.provide(services))
  )
})

describe("CardTransactions: refunds and credits", () => {
  it.effect("partial and full refunds are CREDIT rows; the purchase becomes REFUNDED; above what is left is 409", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const cards = yield* service
      const bought = yield* authorize(s, 500)
      yield* clear(s, bought, 500)
      const refund = (amount: number) => cards.refund(s.platform, s.card.id, { cardTransactionId: bought.id, amount })
      const first = yield* refund(200)
      expect(first).toMatchObject({
        kind: "RETURN",
        direction: "CREDIT",
        status: "SETTLED",
        originalTransactionId: bought.id,
        settledAmount: { amount: 200 }
      })
      expect(yield* cards.get(s.platform, bought.id)).toMatchObject({
        status: "SETTLED",
        refundedAmount: { amount: 200 },
        refundSummary: { count: 1, totalAmount: { amount: 200 } }
      })
      const above = yield* Effect.flip(refund(301))
      expect(above).toMatchObject({ code: "INVALID_STATE_TRANSITION" })
      yield* refund(300)
      expect(yield* cards.get(s.platform, bought.id)).toMatchObject({
        status: "REFUNDED",
        refundedAmount: { amount: 500 }
      })
      expect((yield* eventsOf(bought.id)).map((event) => event.status)).toEqual([
        "AUTHORIZED",
        "SETTLED",
        "SETTLED",
        "REFUNDED"
      ])
      expect((yield* eventsOf(first.id)).map((event) => event.type)).toEqual(["CARD_TRANSACTION.SETTLED"])
      yield* ledger(s, 1_000, 0)
      const reversed = yield* cards.reverseRefund(s.platform, s.card.id, { cardTransactionId: bought.id })
      expect(reversed).toMatchObject({
        status: "SETTLED",
        refundedAmount: { amount: 200 },
        refundSummary: { count: 1, totalAmount: { amount: 200 } }
      })
      expect(
        (yield* Effect.flip(cards.reverseRefund(s.platform, s.card.id, { cardTransactionId: bought.id }))).code
      ).toBe("INVALID_STATE_TRANSITION")
      yield* ledger(s, 700, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("a reversal the account cannot cover declines INSUFFICIENT_FUNDS and changes nothing", () =>
    Effect.gen(function* () {
      const s = yield* setup(500)
      const cards = yield* service
      const bought = yield* cards.authorize(s.platform, s.card.id, "FINANCIAL_AUTHORIZATION", purchase(500))
      expect(bought).toMatchObject({ status: "SETTLED", settledAmount: { amount: 500 } })
      yield* cards.refund(s.platform, s.card.id, { cardTransactionId: bought.id, amount: 500 })
      yield* authorize(s, 400)
      const declined = yield* declineOf(cards.reverseRefund(s.platform, s.card.id, { cardTransactionId: bought.id }))
      expect(declined).toBe("INSUFFICIENT_FUNDS")
      expect((yield* cards.get(s.platform, bought.id)).status).toBe("REFUNDED")
      yield* ledger(s, 100, 400)
    }).pipe(Effect.provide(services))
  )

  it.effect("credit kinds credit the funding account; the advice is never declined", () =>
    Effect.gen(function* () {
      const s = yield* setup(0)
      const cards = yield* service
      const pending = yield* cards.authorize(s.platform, s.card.id, "CREDIT_AUTHORIZATION", purchase(300))
      expect(pending).toMatchObject({ direction: "CREDIT", status: "AUTHORIZED", pullSummary: { count: 0 } })
      yield* ledger(s, 0, 0)
      expect(yield* clear(s, pending, 300)).toMatchObject({ status: "SETTLED", settledAmount: { amount: 300 } })
      yield* ledger(s, 300, 0)
      const at = yield* cards.authorize(s.platform, s.card.id, "FINANCIAL_CREDIT_AUTHORIZATION", purchase(50))
      expect(at).toMatchObject({ direction: "CREDIT", status: "SETTLED" })
      yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "FROZEN" })
      expect(yield* declineOf(cards.authorize(s.platform, s.card.id, "CREDIT_AUTHORIZATION", purchase(10)))).toBe(
        "CARD_PAUSED"
      )
      const advice = yield* cards.authorize(
        s.platform,
        s.card.id,
        "CREDIT_AUTHORIZATION_ADVICE",
        purchase(70, "Store 002")
      )
      expect(advice).toMatchObject({ kind: "CREDIT_AUTHORIZATION_ADVICE", status: "AUTHORIZED" })
      yield* clear(s, advice, 70)
      yield* ledger(s, 420, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("a closed card's clearings and refunds still settle; new authorizations decline", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const cards = yield* service
      const open = yield* authorize(s, 300)
      const bought = yield* authorize(s, 200)
      yield* clear(s, bought, 200)
      yield* CardTransactionFixtures.changeCard(s.platform.id, s.card, { status: "CLOSED" })
      expect((yield* clear(s, open, 300)).status).toBe("SETTLED")
      expect((yield* cards.refund(s.platform, s.card.id, { cardTransactionId: bought.id, amount: 200 })).status).toBe(
        "SETTLED"
      )
      expect(yield* declineOf(authorize(s, 10))).toBe("CARD_NOT_ACTIVE")
      yield* ledger(s, 700, 0)
    }).pipe(Effect.provide(services))
  )

  it.effect("unknown cards and transactions, and a transaction of another card, are not found", () =>
    Effect.gen(function* () {
      const s = yield* setup(1_000)
      const cards = yield* service
      const row = yield* authorize(s, 100)
      const other = yield* CardTransactionFixtures.insertActiveCard(s.platform.id, s.card.customerId, s.funding)
      const misplaced = yield* Effect.flip(cards.clear(s.platform, other.id, { cardTransactionId: row.id, amount: 1 }))
      expect(misplaced.code).toBe("TRANSACTION_NOT_FOUND")
      const unknownCard = yield* Effect.flip(
        cards.authorize(
          s.platform,
          Card.CardId.make(`Card:${globalThis.crypto.randomUUID()}`),
          "AUTHORIZATION",
          purchase(1)
        )
      )
      expect(unknownCard.code).toBe("NOT_FOUND")
      yield* ledger(s, 900, 100)
    }).pipe(Effect.provide(services))
  )
})
