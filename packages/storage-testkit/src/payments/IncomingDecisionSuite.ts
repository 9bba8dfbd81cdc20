import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { IncomingDecision, IncomingDecisionRepo, Transaction, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"

const awaiting = () =>
  IncomingDecision.awaiting(
    Transaction.TransactionId.make(`Transaction:${globalThis.crypto.randomUUID()}`),
    Fixtures.at(1_000)
  )

const decided = (
  decision: IncomingDecision.IncomingDecision,
  status: IncomingDecision.IncomingDecisionStatus,
  extra: Partial<IncomingDecision.IncomingDecision> = {}
) =>
  new IncomingDecision.IncomingDecision({
    ...decision,
    status,
    decidedBy: status === "TIMED_OUT" ? "DEADLINE" : "API",
    decidedAt: Fixtures.at(2_000),
    ...extra
  })

/**
 * Incoming decisions: found as inserted, one per transaction, scoped to the platform; decided once (exactly one of
 * 20 concurrent decisions wins, a decided one is not decided again); a decision rolled back with its unit of work
 * leaves the payment awaiting.
 */
export const register = (it: Methods) => {
  it.effect("finds a decision as inserted and decided, one per transaction, never another platform's", () =>
    Effect.gen(function* () {
      const repo = yield* IncomingDecisionRepo.IncomingDecisionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const decision = awaiting()
      yield* repo.insert(platform.id, decision)
      expect(yield* repo.find(platform.id, decision.transactionId)).toEqual(Option.some(decision))
      expect(yield* repo.find(other.id, decision.transactionId)).toEqual(Option.none())
      expect(yield* repo.find(platform.id, awaiting().transactionId)).toEqual(Option.none())
      const again = yield* Effect.either(repo.insert(platform.id, decision))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")

      const rejected = decided(decision, "REJECTED", { reason: "no", receiverCustomerInfo: { a: [1, "b"] } })
      expect(yield* repo.decide(other.id, rejected)).toBe(false)
      expect(yield* repo.decide(platform.id, rejected)).toBe(true)
      expect(yield* repo.find(platform.id, decision.transactionId)).toEqual(Option.some(rejected))
      expect(yield* repo.decide(platform.id, decided(decision, "APPROVED"))).toBe(false)
      expect(yield* repo.find(platform.id, decision.transactionId)).toEqual(Option.some(rejected))
    })
  )

  it.effect("lets exactly one of 20 concurrent decisions of a payment apply", () =>
    Effect.gen(function* () {
      const repo = yield* IncomingDecisionRepo.IncomingDecisionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const decision = awaiting()
      yield* repo.insert(platform.id, decision)
      const outcomes = ["APPROVED", "REJECTED", "TIMED_OUT", "APPROVED"] as const
      const applied = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) =>
          store.transaction(repo.decide(platform.id, decided(decision, outcomes[index % 4]!)))
        ),
        { concurrency: "unbounded" }
      )
      expect(applied.filter((won) => won)).toHaveLength(1)
      const winner = outcomes[applied.indexOf(true) % 4]
      expect(Option.map(yield* repo.find(platform.id, decision.transactionId), (found) => found.status)).toEqual(
        Option.some(winner)
      )
    })
  )

  it.effect("leaves a payment awaiting when the unit of work that decided it rolls back", () =>
    Effect.gen(function* () {
      const repo = yield* IncomingDecisionRepo.IncomingDecisionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const decision = awaiting()
      yield* repo.insert(platform.id, decision)
      const failed = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.decide(platform.id, decided(decision, "APPROVED")), Effect.fail("undo")))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.find(platform.id, decision.transactionId)).toEqual(Option.some(decision))
      expect(yield* repo.decide(platform.id, decided(decision, "TIMED_OUT"))).toBe(true)
    })
  )
}
