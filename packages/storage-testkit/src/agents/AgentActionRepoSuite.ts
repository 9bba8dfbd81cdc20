import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { type AgentAction, AgentActionRepo, Page, type Platform, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as AgentFixtures from "./AgentFixtures.js"
import { pagedIds } from "./PagedIds.js"

const firstPage = (limit = 100): Page.PageRequest => ({ limit, after: Option.none() })

// Every page of an action list in `order`, `limit` rows at a time, each page's invariants checked; the ids in order.
const listed = (
  platformId: Platform.PlatformId,
  filter: AgentAction.AgentActionFilter,
  order: "asc" | "desc",
  limit: number
) =>
  Effect.flatMap(AgentActionRepo.AgentActionRepo, (repo) =>
    pagedIds((page) => repo.list(platformId, filter, page, order), limit)
  )

const inOrder = (actions: ReadonlyArray<AgentAction.StoredAgentAction>, order: "asc" | "desc") => {
  const newestFirst = [...actions].sort((a, b) => Page.compareNewestFirst(a, b)).map((action) => action.id)
  return order === "desc" ? newestFirst : newestFirst.reverse()
}

const millis = (at: DateTime.Utc) => DateTime.toEpochMillis(at)

/**
 * Agent actions: every field stored as given (undefined optionals included), scoped to their platform, found by
 * their transaction, listed by every filter in both orders in keyset pages with the total, and moved on by a
 * compare-and-set on the status that exactly one of concurrent transitions wins.
 */
export const register = (it: Methods) => {
  it.effect("finds each action as inserted, every field intact, only within its platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(mine.id)
      const pending = AgentFixtures.quoteAction(agent, { offsetMillis: 1_234 })
      const transfer = AgentFixtures.transferAction(agent)
      const railless = AgentFixtures.transferAction(agent, {
        type: "TRANSFER_IN",
        transferDetails: AgentFixtures.transferDetails()
      })
      const executed = AgentFixtures.transferAction(agent, {
        status: "APPROVED",
        executed: true,
        transactionId: AgentFixtures.transactionId(),
        updatedAt: Fixtures.at(90_000)
      })
      const rejected = AgentFixtures.quoteAction(agent, { status: "REJECTED", rejectionReason: "Not this one ✋" })
      const failed = AgentFixtures.quoteAction(agent, { status: "FAILED", failureReason: "QUOTE_EXPIRED" })
      const actions = [pending, transfer, railless, executed, rejected, failed]
      for (const action of actions) yield* repo.insert(action)
      for (const action of actions) expect(yield* repo.findById(mine.id, action.id)).toEqual(Option.some(action))
      expect(yield* repo.findById(other.id, pending.id)).toEqual(Option.none())
      expect(yield* repo.findById(mine.id, AgentFixtures.quoteAction(agent).id)).toEqual(Option.none())

      const found = Option.getOrThrow(yield* repo.findById(mine.id, railless.id))
      expect(found.transferDetails && "paymentRail" in found.transferDetails).toBe(false)
      expect(Option.getOrThrow(yield* repo.findById(mine.id, transfer.id)).transferDetails?.paymentRail).toBe("ACH")

      const again = yield* Effect.either(repo.insert({ ...pending, status: "APPROVED" }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findById(mine.id, pending.id)).toEqual(Option.some(pending))
    })
  )

  it.effect("finds the newest action about a transaction, only within its platform", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(mine.id)
      const transactionId = AgentFixtures.transactionId()
      const rejected = AgentFixtures.quoteAction(agent, { transactionId, status: "REJECTED", rejectionReason: "no" })
      const resubmitted = AgentFixtures.quoteAction(agent, { transactionId, offsetMillis: 1_000 })
      yield* repo.insert(rejected)
      yield* repo.insert(resubmitted)
      yield* repo.insert(AgentFixtures.transferAction(agent))
      expect(yield* repo.findByTransactionId(mine.id, transactionId)).toEqual(Option.some(resubmitted))
      expect(yield* repo.findByTransactionId(other.id, transactionId)).toEqual(Option.none())
      expect(yield* repo.findByTransactionId(mine.id, AgentFixtures.transactionId())).toEqual(Option.none())
    })
  )

  it.effect("lists a platform's actions by every filter, in both orders, in keyset pages with the total", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const first = AgentFixtures.agent(platform.id)
      const second = AgentFixtures.agent(platform.id)
      const statuses: ReadonlyArray<AgentAction.AgentActionStatus> = ["PENDING_APPROVAL", "APPROVED", "REJECTED"]
      // Pairs share a creation instant, so the id decides their order.
      const actions = Array.from({ length: 9 }, (_, index) =>
        (index % 2 === 0 ? AgentFixtures.quoteAction : AgentFixtures.transferAction)(index % 3 === 0 ? second : first, {
          offsetMillis: Math.floor(index / 2) * 1_000,
          status: statuses[index % 3] ?? "FAILED"
        })
      )
      for (const action of actions) yield* repo.insert(action)
      const theirs = AgentFixtures.quoteAction({ ...first, platformId: other.id })
      yield* repo.insert(theirs)

      const filters: ReadonlyArray<
        readonly [AgentAction.AgentActionFilter, (action: AgentAction.StoredAgentAction) => boolean]
      > = [
        [{}, () => true],
        [{ agentId: second.id }, (action) => action.agentId === second.id],
        [{ customerId: first.customerId }, (action) => action.customerId === first.customerId],
        [{ status: "PENDING_APPROVAL" }, (action) => action.status === "PENDING_APPROVAL"],
        [
          { agentId: first.id, status: "APPROVED" },
          (action) => action.agentId === first.id && action.status === "APPROVED"
        ],
        [{ createdAfter: Fixtures.at(2_000) }, (action) => millis(action.createdAt) >= millis(Fixtures.at(2_000))],
        [
          { createdAfter: Fixtures.at(1_000), createdBefore: Fixtures.at(3_000) },
          (action) =>
            millis(action.createdAt) >= millis(Fixtures.at(1_000)) &&
            millis(action.createdAt) <= millis(Fixtures.at(3_000))
        ],
        [{ status: "FAILED" }, () => false],
        [{ agentId: AgentFixtures.agent(platform.id).id }, () => false],
        [{ customerId: "not an id" as AgentAction.StoredAgentAction["customerId"] }, () => false]
      ]
      for (const [filter, keep] of filters) {
        for (const order of ["asc", "desc"] as const) {
          for (const limit of [1, 2, 100]) {
            expect(yield* listed(platform.id, filter, order, limit)).toEqual(inOrder(actions.filter(keep), order))
          }
        }
      }
      expect(yield* repo.list(other.id, { agentId: first.id }, firstPage(), "desc")).toEqual({
        data: [theirs],
        hasMore: false,
        totalCount: 1
      })
    })
  )

  it.effect("transitions an action only from the status it is in, storing every field of the next state", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      const pending = AgentFixtures.transferAction(agent)
      yield* repo.insert(pending)
      const transactionId = AgentFixtures.transactionId()
      const approved: AgentAction.StoredAgentAction = {
        ...pending,
        status: "APPROVED",
        executed: true,
        transactionId,
        updatedAt: Fixtures.at(30_000)
      }
      expect(yield* repo.transition("PENDING_APPROVAL", { ...approved, platformId: other.id })).toBe(false)
      expect(yield* repo.transition("APPROVED", approved)).toBe(false)
      expect(yield* repo.findById(platform.id, pending.id)).toEqual(Option.some(pending))
      expect(yield* repo.transition("PENDING_APPROVAL", approved)).toBe(true)
      expect(yield* repo.findById(platform.id, pending.id)).toEqual(Option.some(approved))
      expect(yield* repo.findByTransactionId(platform.id, transactionId)).toEqual(Option.some(approved))
      expect(yield* repo.transition("PENDING_APPROVAL", { ...approved, status: "REJECTED" })).toBe(false)
      expect(yield* repo.transition("PENDING_APPROVAL", AgentFixtures.quoteAction(agent))).toBe(false)
      expect(yield* repo.findById(platform.id, pending.id)).toEqual(Option.some(approved))
    })
  )

  it.effect("lets exactly one of 20 concurrent transitions out of PENDING_APPROVAL apply", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      const pending = AgentFixtures.quoteAction(agent)
      yield* repo.insert(pending)
      const nexts = Array.from({ length: 20 }, (_, index): AgentAction.StoredAgentAction =>
        index % 2 === 0
          ? { ...pending, status: "REJECTED", rejectionReason: `racer ${index}`, updatedAt: Fixtures.at(index) }
          : { ...pending, status: "APPROVED", executed: true, updatedAt: Fixtures.at(index) }
      )
      const applied = yield* Effect.all(
        nexts.map((next) => store.transaction(repo.transition("PENDING_APPROVAL", next))),
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      expect(yield* repo.findById(platform.id, pending.id)).toEqual(Option.some(nexts[applied.indexOf(true)]))
    })
  )

  it.effect("keeps the action pending when the unit of work that transitioned it fails", () =>
    Effect.gen(function* () {
      const repo = yield* AgentActionRepo.AgentActionRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const pending = AgentFixtures.quoteAction(AgentFixtures.agent(platform.id))
      yield* repo.insert(pending)
      const failed: AgentAction.StoredAgentAction = { ...pending, status: "FAILED", failureReason: "AGENT_INACTIVE" }
      const outcome = yield* Effect.either(
        store.transaction(Effect.zipRight(repo.transition("PENDING_APPROVAL", failed), Effect.fail("boom" as const)))
      )
      expect(outcome).toEqual(Either.left("boom"))
      expect(yield* repo.findById(platform.id, pending.id)).toEqual(Option.some(pending))
      expect(yield* repo.transition("PENDING_APPROVAL", failed)).toBe(true)
    })
  )
}
