import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { DomainEvent, Ledger, Outbox, SystemAccounts, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import * as LedgerFixtures from "./LedgerFixtures.js"
import * as LedgerProperties from "./LedgerProperties.js"
import * as LedgerRaces from "./LedgerRaces.js"
import type { Methods } from "../internal/Methods.js"

const { amounts, checkInvariants, fund, movement, openBook, system } = LedgerFixtures

/** The ledger: accounts, postings, guards, idempotency, reservations, units of work, races and invariants. */
export const register = (it: Methods) => {
  it.effect("opens an account idempotently and refuses another spec under the same id, or an invalid one", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const account = LedgerFixtures.guarded(platform.id)
      yield* ledger.openAccount(account)
      yield* ledger.openAccount(account)
      for (const conflicting of [
        { ...account, guarded: false },
        { ...account, currency: "EUR" },
        { ...account, platformId: other.id }
      ]) {
        expect(yield* Effect.flip(ledger.openAccount(conflicting))).toEqual(
          Ledger.InvalidPosting.of("account_exists_with_different_spec", { accountId: account.id })
        )
      }
      for (const bad of [
        { ...account, id: "" },
        { ...account, id: "a\u0000b" },
        { ...account, currency: "XXX" }
      ]) {
        expect((yield* Effect.flip(ledger.openAccount(bad)))._tag).toBe("InvalidPosting")
      }
      expect(yield* amounts(platform.id, account.id)).toEqual([0n, 0n, 0n])
      expect(yield* Effect.flip(ledger.balance(other.id, account.id))).toEqual(
        Ledger.InvalidPosting.of("account_not_found", { accountId: account.id })
      )
      expect(yield* Effect.flip(ledger.balance(platform.id, "InternalAccount:unknown"))).toEqual(
        Ledger.InvalidPosting.of("account_not_found", { accountId: "InternalAccount:unknown" })
      )
    })
  )

  it.effect("opens several accounts at once as one by one would, and none of them when one is refused", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const usd = LedgerFixtures.guarded(platform.id)
      const eur = LedgerFixtures.guarded(platform.id, "EUR")
      const clearing = SystemAccounts.accountsFor(platform.id, ["USD"])
      yield* ledger.openAccounts([])
      yield* ledger.openAccounts([usd, eur, ...clearing])
      yield* ledger.openAccounts([usd, eur, ...clearing])
      expect(yield* amounts(platform.id, usd.id)).toEqual([0n, 0n, 0n])
      expect((yield* LedgerFixtures.balanceOf(platform.id, eur.id)).currency).toBe("EUR")
      expect((yield* fund(platform.id, usd.id, 5n)).applied).toBe(true)

      const fresh = LedgerFixtures.guarded(platform.id)
      const conflicting = { ...eur, currency: "USD" }
      expect(yield* Effect.flip(store.transaction(ledger.openAccounts([fresh, conflicting])))).toEqual(
        Ledger.InvalidPosting.of("account_exists_with_different_spec", { accountId: eur.id })
      )
      const invalid = { ...LedgerFixtures.guarded(platform.id), currency: "XXX" }
      expect((yield* Effect.flip(ledger.openAccounts([fresh, invalid])))._tag).toBe("InvalidPosting")
      for (const unopened of [fresh.id, invalid.id]) {
        expect(yield* Effect.flip(ledger.balance(platform.id, unopened))).toEqual(
          Ledger.InvalidPosting.of("account_not_found", { accountId: unopened })
        )
      }
      expect(yield* amounts(platform.id, eur.id)).toEqual([0n, 0n, 0n])
    })
  )

  it.effect("moves money between guarded accounts; system accounts go below zero; every currency sums to zero", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2, eur: 1 })
      const [alice = "", bob = ""] = book.usd
      const [euro = ""] = book.eur
      const { platformId } = book
      const deposited = yield* fund(platformId, alice, 1_000n)
      expect(deposited.applied).toBe(true)
      expect(deposited.postingId).toMatch(/^Posting:[0-9a-f-]{36}$/)
      yield* ledger.post(movement(platformId, alice, bob, 300n))
      yield* ledger.post({
        platformId,
        idempotencyKey: LedgerFixtures.key(),
        status: "posted",
        description: "FX 200 USD to 180 EUR, 2 USD fee",
        entries: [
          { accountId: alice, currency: "USD", amountMinor: -202n },
          { accountId: system(platformId, "FX", "USD"), currency: "USD", amountMinor: 200n },
          { accountId: system(platformId, "FEES", "USD"), currency: "USD", amountMinor: 2n },
          { accountId: system(platformId, "FX", "EUR"), currency: "EUR", amountMinor: -180n },
          { accountId: euro, currency: "EUR", amountMinor: 180n }
        ]
      })
      expect(yield* amounts(platformId, alice)).toEqual([498n, 0n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([300n, 0n, 0n])
      expect(yield* amounts(platformId, euro)).toEqual([180n, 0n, 0n])
      expect(yield* amounts(platformId, system(platformId, "RAIL_CLEARING"))).toEqual([-1_000n, 0n, 0n])
      expect(yield* amounts(platformId, system(platformId, "FX", "EUR"))).toEqual([-180n, 0n, 0n])
      expect(yield* ledger.postedTotals(platformId)).toEqual(
        new Map([
          ["USD", 0n],
          ["EUR", 0n]
        ])
      )
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("refuses invalid postings with InvalidPosting and applies nothing of them", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2, eur: 1 })
      const other = yield* openBook({ usd: 1 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      yield* fund(platformId, alice, 100n)
      const base = movement(platformId, alice, bob, 10n)
      const invalid: ReadonlyArray<Ledger.Posting> = [
        {
          ...base,
          entries: [
            { accountId: alice, currency: "USD", amountMinor: -10n },
            { accountId: bob, currency: "USD", amountMinor: 9n }
          ]
        },
        {
          ...base,
          entries: [
            { accountId: alice, currency: "USD", amountMinor: 0n },
            { accountId: bob, currency: "USD", amountMinor: 0n }
          ]
        },
        { ...base, entries: [{ accountId: alice, currency: "USD", amountMinor: -10n }] },
        movement(platformId, alice, "InternalAccount:unknown", 10n),
        movement(platformId, alice, other.usd[0] ?? "", 10n),
        movement(platformId, alice, book.eur[0] ?? "", 10n),
        movement(platformId, alice, bob, 10n, { currency: "EUR" }),
        { ...base, idempotencyKey: "" },
        { ...base, description: "nul \u0000" },
        movement(platformId, alice, bob, Ledger.amountMinorMax + 1n)
      ]
      for (const posting of invalid) {
        expect((yield* Effect.flip(ledger.post(posting)))._tag).toBe("InvalidPosting")
      }
      expect(yield* amounts(platformId, alice)).toEqual([100n, 0n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([0n, 0n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect(
    "fails a debit beyond the available balance with InsufficientFunds naming the account; its key stays free",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const book = yield* openBook({ usd: 2 })
        const [alice = "", bob = ""] = book.usd
        const { platformId } = book
        yield* fund(platformId, alice, 100n)
        const tooMuch = movement(platformId, alice, bob, 101n)
        const refused = yield* Effect.flip(ledger.post(tooMuch))
        expect(refused).toBeInstanceOf(Ledger.InsufficientFunds)
        // Every adapter refuses with the same code, reason and rule.
        expect(refused).toEqual(Ledger.InsufficientFunds.of(alice))
        expect(yield* amounts(platformId, alice)).toEqual([100n, 0n, 0n])
        expect(yield* amounts(platformId, bob)).toEqual([0n, 0n, 0n])
        yield* fund(platformId, alice, 1n)
        expect((yield* ledger.post(tooMuch)).applied).toBe(true)
        expect(yield* amounts(platformId, alice)).toEqual([0n, 0n, 0n])
        yield* checkInvariants(platformId, book.accounts)
      })
  )

  it.effect(
    "answers the balances its posting left in each guarded account, in id order; a replay, as they are now",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const book = yield* openBook({ usd: 2 })
        const { platformId } = book
        const [low = "", high = ""] = [...book.usd].sort()
        const deposited = yield* fund(platformId, high, 500n)
        expect(deposited.balances).toEqual([
          { accountId: high, currency: "USD", postedMinor: 500n, pendingDebitsMinor: 0n, pendingCreditsMinor: 0n }
        ])
        const held = movement(platformId, high, low, 120n, { status: "pending" })
        // Entries listed high first: the answer is still in account id order.
        const reserved = yield* ledger.post(held)
        expect(reserved.balances).toEqual([
          { accountId: low, currency: "USD", postedMinor: 0n, pendingDebitsMinor: 0n, pendingCreditsMinor: 120n },
          { accountId: high, currency: "USD", postedMinor: 500n, pendingDebitsMinor: 120n, pendingCreditsMinor: 0n }
        ])
        yield* ledger.confirm(platformId, reserved.postingId)
        yield* fund(platformId, low, 7n)
        const replayed = yield* ledger.post(held)
        expect(replayed.applied).toBe(false)
        expect(replayed.balances).toEqual([
          { accountId: low, currency: "USD", postedMinor: 127n, pendingDebitsMinor: 0n, pendingCreditsMinor: 0n },
          { accountId: high, currency: "USD", postedMinor: 380n, pendingDebitsMinor: 0n, pendingCreditsMinor: 0n }
        ])
        // Only system accounts: nothing guarded to answer.
        const fee = movement(platformId, system(platformId, "RAIL_CLEARING"), system(platformId, "FEES"), 3n)
        expect((yield* ledger.post(fee)).balances).toEqual([])
        yield* checkInvariants(platformId, book.accounts)
      })
  )

  it.effect(
    "refuses a posting that would take a guarded balance past 2^53-1 with BalanceLimitExceeded, applying nothing",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger.Ledger
        const store = yield* UnitOfWork.UnitOfWork
        const book = yield* openBook({ usd: 2 })
        const [alice = "", bob = ""] = book.usd
        const { platformId } = book
        const max = Ledger.balanceMinorMax
        expect(max).toBe(9007199254740991n)
        yield* fund(platformId, alice, max - 10n)
        const past = LedgerFixtures.deposit(platformId, alice, 100n)
        const refused = yield* Effect.flip(ledger.post(past))
        expect(refused).toBeInstanceOf(Ledger.BalanceLimitExceeded)
        // Every adapter refuses with the same code, reason and rule.
        expect(refused).toEqual(Ledger.BalanceLimitExceeded.of())
        // An amount that would pass even a 64-bit balance is refused alike.
        const huge = LedgerFixtures.deposit(platformId, alice, Ledger.amountMinorMax)
        expect(yield* Effect.flip(ledger.post(huge))).toEqual(Ledger.BalanceLimitExceeded.of())
        expect(yield* amounts(platformId, alice)).toEqual([max - 10n, 0n, 0n])
        // Inside a unit of work the refusal leaves the unit usable; a posting exactly to the limit applies.
        yield* store.transaction(
          Effect.gen(function* () {
            expect((yield* Effect.flip(ledger.post(past)))._tag).toBe("BalanceLimitExceeded")
            expect((yield* fund(platformId, alice, 10n)).applied).toBe(true)
          })
        )
        expect(yield* amounts(platformId, alice)).toEqual([max, 0n, 0n])
        // The refused posting applied nothing, so its key stays free: once the balance allows it, it applies.
        yield* ledger.post(movement(platformId, alice, bob, 100n))
        expect((yield* ledger.post(past)).applied).toBe(true)

        // Posted plus pending credits stays within the limit too, so confirming a reservation never passes it.
        const incoming = yield* ledger.post(
          LedgerFixtures.movement(platformId, system(platformId, "RAIL_CLEARING"), bob, max - 100n, {
            status: "pending"
          })
        )
        expect(yield* amounts(platformId, bob)).toEqual([100n, 0n, max - 100n])
        expect(yield* Effect.flip(fund(platformId, bob, 1n))).toEqual(Ledger.BalanceLimitExceeded.of())
        yield* ledger.confirm(platformId, incoming.postingId)
        expect(yield* amounts(platformId, bob)).toEqual([max, 0n, 0n])
        yield* checkInvariants(platformId, book.accounts)
      })
  )

  it.effect("records an event completed with the posting's id and balances only when the posting applies", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const store = yield* UnitOfWork.UnitOfWork
      const book = yield* openBook({ usd: 2 })
      const { platformId } = book
      const [alice = "", bob = ""] = book.usd
      yield* fund(platformId, alice, 100n)
      const eventsOf = Effect.map(
        Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)),
        (events) => events.filter((event) => event.platformId === platformId)
      )
      const template = (type: string) =>
        new DomainEvent.DomainEvent({
          id: DomainEvent.EventId.make(`Webhook:${globalThis.crypto.randomUUID()}`),
          platformId,
          type,
          timestamp: Fixtures.at(0),
          data: { kept: "as is", account: { balance: { amount: 0, currency: "USD" }, total: { amount: 0 } } }
        })
      const figures = (accountId: string) => ({
        postingIdAt: [["postingId"]],
        balancesAt: [
          { accountId, availableAt: ["account", "balance", "amount"], postedAt: ["account", "total", "amount"] }
        ]
      })
      const posting = movement(platformId, alice, bob, 30n, { status: "pending" })
      const event = template("MOVED")
      const result = yield* ledger.postRecording(posting, { event, ...figures(alice) })
      expect(result.applied).toBe(true)
      expect(result.balances.map((balance) => balance.accountId)).toEqual([alice, bob].sort())
      const recorded = new DomainEvent.DomainEvent({
        ...event,
        data: {
          kept: "as is",
          postingId: result.postingId,
          account: { balance: { amount: 70, currency: "USD" }, total: { amount: 100 } }
        }
      })
      expect(yield* eventsOf).toEqual([recorded])

      // A replay, a refused posting and a failed unit of work record nothing.
      expect((yield* ledger.postRecording(posting, { event: template("REPLAYED"), ...figures(alice) })).applied).toBe(
        false
      )
      const tooMuch = movement(platformId, alice, bob, 71n)
      expect(
        (yield* Effect.flip(ledger.postRecording(tooMuch, { event: template("REFUSED"), ...figures(alice) })))._tag
      ).toBe("InsufficientFunds")
      const undone = store.transaction(
        Effect.zipRight(
          ledger.postRecording(movement(platformId, alice, bob, 1n), { event: template("UNDONE"), ...figures(alice) }),
          Effect.fail("boom" as const)
        )
      )
      expect(yield* Effect.flip(undone)).toBe("boom")
      // A balance of an account that is not a guarded account of the posting refuses the posting as a whole.
      const stray = movement(platformId, alice, bob, 1n)
      const strayFigures = figures(system(platformId, "RAIL_CLEARING"))
      const refused = yield* Effect.flip(ledger.postRecording(stray, { event: template("STRAY"), ...strayFigures }))
      expect(refused._tag).toBe("StoreFailure")
      expect(yield* eventsOf).toEqual([recorded])
      expect(yield* amounts(platformId, alice)).toEqual([100n, 30n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("replays a posting by its key without applying it twice; other content under the key is refused", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2 })
      const other = yield* openBook({ usd: 1 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      yield* fund(platformId, alice, 100n)
      const posting = movement(platformId, alice, bob, 40n)
      const first = yield* ledger.post(posting)
      const replay = yield* ledger.post({ ...posting, entries: [...posting.entries].reverse() })
      expect(replay).toEqual({
        postingId: first.postingId,
        applied: false,
        balances: [yield* LedgerFixtures.balanceOf(platformId, alice), yield* LedgerFixtures.balanceOf(platformId, bob)]
          .slice()
          .sort((a, b) => (a.accountId < b.accountId ? -1 : 1))
      })
      expect(yield* amounts(platformId, bob)).toEqual([40n, 0n, 0n])
      for (const changed of [
        { ...posting, description: "other" },
        { ...posting, status: "pending" as const },
        movement(platformId, alice, bob, 41n, { idempotencyKey: posting.idempotencyKey })
      ]) {
        const reused = yield* Effect.flip(ledger.post(changed))
        expect(reused).toEqual(Ledger.IdempotencyKeyReused.of(posting.idempotencyKey))
      }
      const sameKeyElsewhere = {
        ...LedgerFixtures.deposit(other.platformId, other.usd[0] ?? "", 5n),
        idempotencyKey: posting.idempotencyKey
      }
      expect((yield* ledger.post(sameKeyElsewhere)).applied).toBe(true)
      expect(yield* amounts(other.platformId, other.usd[0] ?? "")).toEqual([5n, 0n, 0n])
      expect(yield* amounts(platformId, alice)).toEqual([60n, 0n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("holds reserved funds until the reservation is committed or released, exactly once", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const book = yield* openBook({ usd: 2 })
      const other = yield* openBook({ usd: 1 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      yield* fund(platformId, alice, 100n)
      const held = yield* ledger.post(movement(platformId, alice, bob, 60n, { status: "pending" }))
      expect(yield* amounts(platformId, alice)).toEqual([100n, 60n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([0n, 0n, 60n])
      expect((yield* Effect.flip(ledger.post(movement(platformId, alice, bob, 41n))))._tag).toBe("InsufficientFunds")
      expect((yield* Effect.flip(ledger.post(movement(platformId, alice, bob, 41n, { status: "pending" }))))._tag).toBe(
        "InsufficientFunds"
      )
      yield* checkInvariants(platformId, book.accounts)
      expect((yield* Effect.flip(ledger.confirm(other.platformId, held.postingId)))._tag).toBe("ReservationSettled")
      yield* ledger.confirm(platformId, held.postingId)
      expect(yield* amounts(platformId, alice)).toEqual([40n, 0n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([60n, 0n, 0n])
      expect((yield* Effect.flip(ledger.confirm(platformId, held.postingId)))._tag).toBe("ReservationSettled")
      expect((yield* Effect.flip(ledger.release(platformId, held.postingId)))._tag).toBe("ReservationSettled")

      const released = yield* ledger.post(
        movement(platformId, alice, system(platformId, "RAIL_CLEARING"), 40n, { status: "pending" })
      )
      expect(yield* amounts(platformId, alice)).toEqual([40n, 40n, 0n])
      yield* ledger.release(platformId, released.postingId)
      expect(yield* amounts(platformId, alice)).toEqual([40n, 0n, 0n])
      expect((yield* Effect.flip(ledger.confirm(platformId, released.postingId)))._tag).toBe("ReservationSettled")
      const posted = yield* fund(platformId, alice, 1n)
      expect((yield* Effect.flip(ledger.release(platformId, posted.postingId)))._tag).toBe("ReservationSettled")
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  it.effect("joins the unit of work: undone when the unit fails, and a refused posting leaves the unit usable", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger.Ledger
      const store = yield* UnitOfWork.UnitOfWork
      const book = yield* openBook({ usd: 2 })
      const [alice = "", bob = ""] = book.usd
      const { platformId } = book
      const undone = LedgerFixtures.deposit(platformId, alice, 100n)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(ledger.post(undone), Effect.fail("later" as const)))
      )
      expect(failed).toEqual(Either.left("later"))
      expect(yield* amounts(platformId, alice)).toEqual([0n, 0n, 0n])
      expect((yield* ledger.post(undone)).applied).toBe(true)
      yield* store.transaction(
        Effect.gen(function* () {
          const refused = yield* Effect.flip(ledger.post(movement(platformId, alice, bob, 500n)))
          expect(refused._tag).toBe("InsufficientFunds")
          yield* ledger.post(movement(platformId, alice, bob, 30n))
        })
      )
      expect(yield* amounts(platformId, alice)).toEqual([70n, 0n, 0n])
      expect(yield* amounts(platformId, bob)).toEqual([30n, 0n, 0n])
      yield* checkInvariants(platformId, book.accounts)
    })
  )

  LedgerRaces.register(it)
  LedgerProperties.register(it)
}
