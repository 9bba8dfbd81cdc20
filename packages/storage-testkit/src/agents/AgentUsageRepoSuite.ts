import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { AgentUsageRepo, type Agent, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as AgentFixtures from "./AgentFixtures.js"

const today = { day: "2026-01-31", month: "2026-01" }
const tomorrow = { day: "2026-02-01", month: "2026-02" }

// A charge of `amountMinor` on `period` under the given limits (none unless named).
const charge = (
  amountMinor: bigint,
  limits: Partial<Pick<AgentUsageRepo.UsageCharge, "dailyLimitMinor" | "dailyCountLimit" | "monthlyLimitMinor">> = {},
  period: { readonly day: string; readonly month: string } = today
): AgentUsageRepo.UsageCharge => ({
  ...period,
  amountMinor,
  dailyLimitMinor: undefined,
  dailyCountLimit: undefined,
  monthlyLimitMinor: undefined,
  ...limits
})

const counters = (
  period: { readonly day: string; readonly month: string },
  dailySpendMinor: bigint,
  dailyCount: number,
  monthlySpendMinor: bigint
): AgentUsageRepo.UsageCounters => ({
  day: period.day,
  dailySpendMinor,
  dailyCount,
  month: period.month,
  monthlySpendMinor
})

const freshAgent = Effect.map(Fixtures.insertPlatform, (platform) => AgentFixtures.agent(platform.id))

// 50 charges of 100 at once, each in its own unit of work: how many committed, and the counters after.
const race = (agent: Agent.AgentRecord, limits: Parameters<typeof charge>[1]) =>
  Effect.gen(function* () {
    const repo = yield* AgentUsageRepo.AgentUsageRepo
    const store = yield* UnitOfWork.UnitOfWork
    const results = yield* Effect.all(
      Array.from({ length: 50 }, () =>
        store.transaction(repo.charge(agent.platformId, agent.id, charge(100n, limits)))
      ),
      { concurrency: "unbounded" }
    )
    const committed = results.filter((result) => result !== undefined)
    return { committed, after: yield* repo.current(agent.platformId, agent.id, today) }
  })

/**
 * Agents' usage counters: zero before the first charge, charged in one guarded step (of concurrent charges exactly
 * as many commit as the limits allow), rolled back with a failed unit of work, rolled over by the charge's day and
 * month, re-denominated with the floor, and scoped to the agent's platform.
 */
export const register = (it: Methods) => {
  it.effect("reads zero counters of the asked day and month before the first charge, then what was charged", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const agent = yield* freshAgent
      expect(yield* repo.current(agent.platformId, agent.id, today)).toEqual(counters(today, 0n, 0, 0n))
      expect(yield* repo.charge(agent.platformId, agent.id, charge(250n))).toEqual(counters(today, 250n, 1, 250n))
      expect(yield* repo.charge(agent.platformId, agent.id, charge(9_007_199_254_740_993n))).toEqual(
        counters(today, 9_007_199_254_740_993n + 250n, 2, 9_007_199_254_740_993n + 250n)
      )
      expect(yield* repo.current(agent.platformId, agent.id, today)).toEqual(
        counters(today, 9_007_199_254_740_993n + 250n, 2, 9_007_199_254_740_993n + 250n)
      )
    })
  )

  it.effect("charges up to every limit exactly and refuses beyond it, changing nothing", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const agent = yield* freshAgent
      const { id, platformId } = agent
      expect(yield* repo.charge(platformId, id, charge(1_001n, { dailyLimitMinor: 1_000n }))).toBeUndefined()
      expect(yield* repo.charge(platformId, id, charge(1n, { dailyCountLimit: 0 }))).toBeUndefined()
      expect(yield* repo.charge(platformId, id, charge(1_001n, { monthlyLimitMinor: 1_000n }))).toBeUndefined()
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 0n, 0, 0n))

      const limits = { dailyLimitMinor: 1_000n, dailyCountLimit: 3, monthlyLimitMinor: 1_500n }
      expect(yield* repo.charge(platformId, id, charge(600n, limits))).toEqual(counters(today, 600n, 1, 600n))
      expect(yield* repo.charge(platformId, id, charge(401n, limits))).toBeUndefined()
      expect(yield* repo.charge(platformId, id, charge(400n, limits))).toEqual(counters(today, 1_000n, 2, 1_000n))
      expect(yield* repo.charge(platformId, id, charge(0n, limits))).toEqual(counters(today, 1_000n, 3, 1_000n))
      expect(yield* repo.charge(platformId, id, charge(0n, limits))).toBeUndefined()
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 1_000n, 3, 1_000n))
    })
  )

  it.effect("lets exactly 10 of 50 concurrent charges commit against a daily limit allowing 10", () =>
    Effect.gen(function* () {
      const { after, committed } = yield* race(yield* freshAgent, {
        dailyLimitMinor: 1_000n,
        monthlyLimitMinor: 1_000_000n
      })
      expect(committed).toHaveLength(10)
      expect(after).toEqual(counters(today, 1_000n, 10, 1_000n))
      expect(committed.map((each) => each?.dailyCount).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: 10 }, (_, index) => index + 1)
      )
    })
  )

  it.effect("lets exactly 10 of 50 concurrent charges commit against a daily count limit of 10", () =>
    Effect.gen(function* () {
      const { after, committed } = yield* race(yield* freshAgent, { dailyCountLimit: 10 })
      expect(committed).toHaveLength(10)
      expect(after).toEqual(counters(today, 1_000n, 10, 1_000n))
    })
  )

  it.effect("lets exactly 10 of 50 concurrent charges commit against a monthly limit allowing 10", () =>
    Effect.gen(function* () {
      const { after, committed } = yield* race(yield* freshAgent, { monthlyLimitMinor: 1_000n })
      expect(committed).toHaveLength(10)
      expect(after).toEqual(counters(today, 1_000n, 10, 1_000n))
    })
  )

  it.effect("frees the room of a charge rolled back with its unit of work", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const store = yield* UnitOfWork.UnitOfWork
      const agent = yield* freshAgent
      const limits = { dailyLimitMinor: 1_000n, dailyCountLimit: 1 }
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(
            repo.charge(agent.platformId, agent.id, charge(600n, limits)),
            Effect.fail("abandoned" as const)
          )
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.current(agent.platformId, agent.id, today)).toEqual(counters(today, 0n, 0, 0n))
      expect(yield* repo.charge(agent.platformId, agent.id, charge(1_000n, limits))).toEqual(
        counters(today, 1_000n, 1, 1_000n)
      )
    })
  )

  it.effect("starts the daily counters from zero on the next day while the month keeps counting, then the month", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const agent = yield* freshAgent
      const { id, platformId } = agent
      const first = { day: "2026-01-30", month: "2026-01" }
      const limits = { dailyLimitMinor: 500n, dailyCountLimit: 2, monthlyLimitMinor: 1_200n }
      yield* repo.charge(platformId, id, charge(300n, limits, first))
      expect(yield* repo.charge(platformId, id, charge(200n, limits, first))).toEqual(counters(first, 500n, 2, 500n))
      expect(yield* repo.charge(platformId, id, charge(1n, limits, first))).toBeUndefined()

      // The next day: the day's spend and count start again, the month's spend carries on.
      expect(yield* repo.charge(platformId, id, charge(500n, limits, today))).toEqual(counters(today, 500n, 1, 1_000n))
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 500n, 1, 1_000n))
      expect(yield* repo.current(platformId, id, first)).toEqual(counters(first, 0n, 0, 1_000n))
      expect(yield* repo.charge(platformId, id, charge(201n, { monthlyLimitMinor: 1_200n }, today))).toBeUndefined()

      // The next month: every counter starts again.
      expect(yield* repo.current(platformId, id, tomorrow)).toEqual(counters(tomorrow, 0n, 0, 0n))
      expect(yield* repo.charge(platformId, id, charge(500n, limits, tomorrow))).toEqual(
        counters(tomorrow, 500n, 1, 500n)
      )
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 0n, 0, 0n))
      expect(yield* repo.current(platformId, id, { day: "2026-02-02", month: "2026-02" })).toEqual(
        counters({ day: "2026-02-02", month: "2026-02" }, 0n, 0, 500n)
      )
    })
  )

  it.effect("re-denominates the spend counters with the floor, keeping the count", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const agent = yield* freshAgent
      const { id, platformId } = agent
      yield* repo.rescale(platformId, id, { numerator: 2n, denominator: 1n })
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 0n, 0, 0n))
      yield* repo.charge(platformId, id, charge(1_000n, {}, { day: "2026-01-30", month: "2026-01" }))
      yield* repo.charge(platformId, id, charge(1_001n))
      yield* repo.rescale(platformId, id, { numerator: 1n, denominator: 3n })
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 333n, 1, 667n))
      yield* repo.rescale(platformId, id, { numerator: 17_000n, denominator: 1_000n })
      expect(yield* repo.current(platformId, id, today)).toEqual(counters(today, 5_661n, 1, 11_339n))
    })
  )

  it.effect("scopes counters to the agent's platform: another platform reads zero and changes nothing", () =>
    Effect.gen(function* () {
      const repo = yield* AgentUsageRepo.AgentUsageRepo
      const agent = yield* freshAgent
      const other = yield* Fixtures.insertPlatform
      yield* repo.charge(agent.platformId, agent.id, charge(700n))
      expect(yield* repo.current(other.id, agent.id, today)).toEqual(counters(today, 0n, 0, 0n))
      expect(yield* repo.charge(other.id, agent.id, charge(5n))).toBeUndefined()
      yield* repo.rescale(other.id, agent.id, { numerator: 0n, denominator: 1n })
      expect(yield* repo.current(agent.platformId, agent.id, today)).toEqual(counters(today, 700n, 1, 700n))
      const neighbour = AgentFixtures.agent(agent.platformId)
      expect(yield* repo.current(agent.platformId, neighbour.id, today)).toEqual(counters(today, 0n, 0, 0n))
    })
  )
}
