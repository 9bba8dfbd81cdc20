import { expect } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { type Agent, AgentRepo, Page, type Platform, UnitOfWork } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"
import type { Methods } from "../internal/Methods.js"
import * as AgentFixtures from "./AgentFixtures.js"
import { pagedIds } from "./PagedIds.js"

const firstPage = (limit = 100): Page.PageRequest => ({ limit, after: Option.none() })

const concurrently = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

// Every page of an agent list, `limit` rows at a time, each page's invariants checked; the ids in order.
const listed = (platformId: Platform.PlatformId, filter: Agent.AgentFilter, limit: number) =>
  Effect.flatMap(AgentRepo.AgentRepo, (repo) => pagedIds((page) => repo.list(platformId, filter, page), limit))

const newestFirst = (agents: ReadonlyArray<Agent.AgentRecord>): ReadonlyArray<string> =>
  [...agents].sort((a, b) => Page.compareNewestFirst(a, b)).map((agent) => agent.id)

// Whether `at` is within `from` and `to` (inclusive), offsets from `Fixtures.at(0)`.
const within = (at: DateTime.Utc, from: number, to: number) =>
  DateTime.toEpochMillis(at) >= DateTime.toEpochMillis(Fixtures.at(from)) &&
  DateTime.toEpochMillis(at) <= DateTime.toEpochMillis(Fixtures.at(to))

/**
 * Agents and their device codes: scoped to their platform, listed newest first by every filter in keyset pages,
 * replaced by compare-and-set, deleted for good (token and open codes with them), a new code replacing the open
 * ones, and a code redeemed once (by exactly one of concurrent redeems, never when expired, replaced, redeemed, or
 * its agent deleted or connected), a redeem rolled back with its unit of work undone.
 */
export const register = (it: Methods) => {
  it.effect("finds an agent as inserted, at version 1, only within its platform; an id is inserted once", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const mine = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const full = AgentFixtures.agent(mine.id, { offsetMillis: 1_234, version: 7 })
      const bare = AgentFixtures.agent(mine.id, { policy: AgentFixtures.barePolicy(), isPaused: true })
      yield* repo.insert(full)
      yield* repo.insert(bare)
      expect(yield* repo.findById(mine.id, full.id)).toEqual(Option.some({ ...full, version: 1 }))
      expect(yield* repo.findById(mine.id, bare.id)).toEqual(Option.some(bare))
      expect(yield* repo.findById(other.id, full.id)).toEqual(Option.none())
      expect(yield* repo.findById(mine.id, AgentFixtures.agent(mine.id).id)).toEqual(Option.none())

      const again = yield* Effect.either(repo.insert({ ...full, name: "Impostor" }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(Option.map(yield* repo.findById(mine.id, full.id), (agent) => agent.name)).toEqual(Option.some(full.name))
    })
  )

  it.effect("lists a platform's live agents newest first, by every filter, in keyset pages with the total", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const customer = AgentFixtures.customerId()
      // Pairs share a creation instant, so the id decides their order; updates happen an hour after creation.
      const agents = Array.from({ length: 9 }, (_, index) =>
        AgentFixtures.agent(platform.id, {
          offsetMillis: Math.floor(index / 2) * 1_000,
          updatedAt: Fixtures.at(3_600_000 + index * 1_000),
          ...(index % 3 === 0 ? { customerId: customer } : {}),
          isPaused: index % 2 === 1,
          isConnected: index % 4 === 0
        })
      )
      for (const agent of agents) yield* repo.insert(agent)
      const deleted = AgentFixtures.agent(platform.id, { customerId: customer, offsetMillis: 500 })
      yield* repo.insert(deleted)
      expect(yield* repo.delete(platform.id, deleted.id, Fixtures.at(10_000))).toBe(true)
      yield* repo.insert(AgentFixtures.agent(other.id, { customerId: customer }))

      const expected = (keep: (agent: Agent.AgentRecord) => boolean) => newestFirst(agents.filter(keep))
      for (const limit of [1, 2, 4, 100]) expect(yield* listed(platform.id, {}, limit)).toEqual(expected(() => true))
      const filters: ReadonlyArray<readonly [Agent.AgentFilter, (agent: Agent.AgentRecord) => boolean]> = [
        [{ customerId: customer }, (agent) => agent.customerId === customer],
        [{ isPaused: true }, (agent) => agent.isPaused],
        [{ isPaused: false }, (agent) => !agent.isPaused],
        [{ isConnected: true }, (agent) => agent.isConnected],
        [{ isConnected: false, isPaused: false }, (agent) => !agent.isConnected && !agent.isPaused],
        [{ createdAfter: Fixtures.at(1_000) }, (agent) => within(agent.createdAt, 1_000, 1e9)],
        [{ createdBefore: Fixtures.at(2_000) }, (agent) => within(agent.createdAt, -1e9, 2_000)],
        [
          { updatedAfter: Fixtures.at(3_603_000), updatedBefore: Fixtures.at(3_606_000) },
          (agent) => within(agent.updatedAt, 3_603_000, 3_606_000)
        ],
        [{ customerId: AgentFixtures.customerId() }, () => false],
        [{ customerId: "not an id" as Agent.AgentRecord["customerId"] }, () => false]
      ]
      for (const [filter, keep] of filters) {
        for (const limit of [2, 100]) expect(yield* listed(platform.id, filter, limit)).toEqual(expected(keep))
      }
      expect(yield* repo.list(other.id, { isPaused: true }, firstPage())).toEqual({
        data: [],
        hasMore: false,
        totalCount: 0
      })
    })
  )

  it.effect("updates an agent only at the version it read, storing the next version; one of 16 racers wins", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      const renamed: Agent.AgentRecord = {
        ...agent,
        name: "Renamed",
        isPaused: true,
        policy: AgentFixtures.barePolicy(),
        updatedAt: Fixtures.at(5_000)
      }
      expect(yield* repo.update({ ...renamed, platformId: other.id }, 1)).toBe(false)
      expect(yield* repo.update(renamed, 2)).toBe(false)
      expect(yield* repo.update(renamed, 1)).toBe(true)
      expect(yield* repo.update({ ...renamed, name: "Stale" }, 1)).toBe(false)
      expect(yield* repo.findById(platform.id, agent.id)).toEqual(Option.some({ ...renamed, version: 2 }))
      expect(yield* repo.update(AgentFixtures.agent(platform.id), 1)).toBe(false)

      const applied = yield* concurrently(
        Array.from({ length: 16 }, (_, index) => repo.update({ ...renamed, name: `Racer ${index}` }, 2))
      )
      expect(applied.filter(Boolean)).toHaveLength(1)
      const found = Option.getOrThrow(yield* repo.findById(platform.id, agent.id))
      expect(found.version).toBe(3)
      expect(found.name).toBe(`Racer ${applied.indexOf(true)}`)
    })
  )

  it.effect("deletes an agent once: gone from find, list and token lookup at once, its open codes invalidated", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const other = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      const redeemed = AgentFixtures.deviceCode(agent)
      yield* repo.insertDeviceCode(redeemed)
      const token = AgentFixtures.hash()
      expect(yield* repo.redeemDeviceCode(redeemed.codeHash, token, Fixtures.at(1_000))).toBe(true)
      const open = AgentFixtures.deviceCode(agent, 2_000)
      yield* repo.insertDeviceCode(open)
      expect(Option.isSome(yield* repo.findByTokenHash(token))).toBe(true)

      expect(yield* repo.delete(other.id, agent.id, Fixtures.at(3_000))).toBe(false)
      expect(Option.isSome(yield* repo.findById(platform.id, agent.id))).toBe(true)
      expect(yield* repo.delete(platform.id, agent.id, Fixtures.at(3_000))).toBe(true)
      expect(yield* repo.findById(platform.id, agent.id)).toEqual(Option.none())
      expect(yield* repo.findByTokenHash(token)).toEqual(Option.none())
      expect((yield* repo.list(platform.id, {}, firstPage())).data).toEqual([])
      expect(yield* repo.findDeviceCode(open.codeHash)).toEqual(
        Option.some({ ...open, invalidatedAt: Fixtures.at(3_000) })
      )
      expect(yield* repo.findDeviceCode(redeemed.codeHash)).toEqual(
        Option.some({ ...redeemed, redeemedAt: Fixtures.at(1_000) })
      )
      expect(yield* repo.update({ ...agent, name: "Revived" }, 2)).toBe(false)
      expect(yield* repo.delete(platform.id, agent.id, Fixtures.at(4_000))).toBe(false)
      expect(yield* repo.findById(platform.id, agent.id)).toEqual(Option.none())
    })
  )

  it.effect("stores a device code by its hash and invalidates the agent's earlier open codes, no one else's", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      const neighbour = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      yield* repo.insert(neighbour)
      const first = AgentFixtures.deviceCode(agent)
      const theirs = AgentFixtures.deviceCode(neighbour)
      yield* repo.insertDeviceCode(first)
      yield* repo.insertDeviceCode(theirs)
      expect(yield* repo.findDeviceCode(first.codeHash)).toEqual(Option.some(first))
      expect(yield* repo.findDeviceCode(AgentFixtures.hash())).toEqual(Option.none())

      const second = AgentFixtures.deviceCode(agent, 60_000)
      yield* repo.insertDeviceCode(second)
      expect(yield* repo.findDeviceCode(first.codeHash)).toEqual(
        Option.some({ ...first, invalidatedAt: second.createdAt })
      )
      expect(yield* repo.findDeviceCode(second.codeHash)).toEqual(Option.some(second))
      expect(yield* repo.findDeviceCode(theirs.codeHash)).toEqual(Option.some(theirs))
      expect(yield* repo.redeemDeviceCode(first.codeHash, AgentFixtures.hash(), Fixtures.at(61_000))).toBe(false)

      const again = yield* Effect.either(repo.insertDeviceCode({ ...second, createdAt: Fixtures.at(70_000) }))
      expect(Either.isLeft(again) && again.left._tag).toBe("StoreFailure")
      expect(yield* repo.findDeviceCode(second.codeHash)).toEqual(Option.some(second))
    })
  )

  it.effect("redeems a code before it expires: the agent connected with the token, a new version, found by it", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      const code = AgentFixtures.deviceCode(agent)
      yield* repo.insertDeviceCode(code)
      expect(yield* repo.redeemDeviceCode(code.codeHash, AgentFixtures.hash(), code.expiresAt)).toBe(false)
      expect(yield* repo.redeemDeviceCode(code.codeHash, AgentFixtures.hash(), Fixtures.at(3_600_001))).toBe(false)
      expect(yield* repo.redeemDeviceCode(AgentFixtures.hash(), AgentFixtures.hash(), Fixtures.at(1))).toBe(false)
      expect(yield* repo.findDeviceCode(code.codeHash)).toEqual(Option.some(code))

      const token = AgentFixtures.hash()
      const at = Fixtures.at(3_599_999)
      expect(yield* repo.redeemDeviceCode(code.codeHash, token, at)).toBe(true)
      const connected: Agent.AgentRecord = { ...agent, isConnected: true, tokenHash: token, updatedAt: at, version: 2 }
      expect(yield* repo.findById(platform.id, agent.id)).toEqual(Option.some(connected))
      expect(yield* repo.findByTokenHash(token)).toEqual(Option.some(connected))
      expect(yield* repo.findByTokenHash(AgentFixtures.hash())).toEqual(Option.none())
      expect(yield* repo.findDeviceCode(code.codeHash)).toEqual(Option.some({ ...code, redeemedAt: at }))
      expect(yield* repo.redeemDeviceCode(code.codeHash, AgentFixtures.hash(), at)).toBe(false)
      expect(yield* repo.findByTokenHash(token)).toEqual(Option.some(connected))
    })
  )

  it.effect("refuses a code that was replaced, or whose agent is deleted or already connected", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const platform = yield* Fixtures.insertPlatform
      const at = Fixtures.at(1_000)

      const replacedAgent = AgentFixtures.agent(platform.id)
      yield* repo.insert(replacedAgent)
      const replaced = AgentFixtures.deviceCode(replacedAgent)
      yield* repo.insertDeviceCode(replaced)
      yield* repo.insertDeviceCode(AgentFixtures.deviceCode(replacedAgent, 500))
      expect(yield* repo.redeemDeviceCode(replaced.codeHash, AgentFixtures.hash(), at)).toBe(false)

      const deletedAgent = AgentFixtures.agent(platform.id)
      yield* repo.insert(deletedAgent)
      const orphan = AgentFixtures.deviceCode(deletedAgent)
      yield* repo.insertDeviceCode(orphan)
      yield* repo.delete(platform.id, deletedAgent.id, Fixtures.at(500))
      expect(yield* repo.redeemDeviceCode(orphan.codeHash, AgentFixtures.hash(), at)).toBe(false)

      const connectedAgent = AgentFixtures.agent(platform.id)
      yield* repo.insert(connectedAgent)
      const firstToken = AgentFixtures.hash()
      const firstCode = AgentFixtures.deviceCode(connectedAgent)
      yield* repo.insertDeviceCode(firstCode)
      expect(yield* repo.redeemDeviceCode(firstCode.codeHash, firstToken, Fixtures.at(100))).toBe(true)
      const secondCode = AgentFixtures.deviceCode(connectedAgent, 200)
      yield* repo.insertDeviceCode(secondCode)
      expect(yield* repo.redeemDeviceCode(secondCode.codeHash, AgentFixtures.hash(), at)).toBe(false)
      expect(yield* repo.findDeviceCode(secondCode.codeHash)).toEqual(Option.some(secondCode))
      expect(Option.map(yield* repo.findById(platform.id, connectedAgent.id), (agent) => agent.tokenHash)).toEqual(
        Option.some(firstToken)
      )
    })
  )

  it.effect("lets exactly one of 20 concurrent redeems of a code win, each in its own unit of work", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      const code = AgentFixtures.deviceCode(agent)
      yield* repo.insertDeviceCode(code)
      const tokens = Array.from({ length: 20 }, () => AgentFixtures.hash())
      const redeemed = yield* concurrently(
        tokens.map((token) => store.transaction(repo.redeemDeviceCode(code.codeHash, token, Fixtures.at(1_000))))
      )
      expect(redeemed.filter(Boolean)).toHaveLength(1)
      const winner = tokens[redeemed.indexOf(true)]
      const found = Option.getOrThrow(yield* repo.findById(platform.id, agent.id))
      expect({ tokenHash: found.tokenHash, isConnected: found.isConnected, version: found.version }).toEqual({
        tokenHash: winner,
        isConnected: true,
        version: 2
      })
      for (const token of tokens) expect(Option.isSome(yield* repo.findByTokenHash(token))).toBe(token === winner)
    })
  )

  it.effect(
    "settles a redeem racing a new code or the agent's deletion one way: a code is redeemed or invalidated",
    () =>
      Effect.gen(function* () {
        const repo = yield* AgentRepo.AgentRepo
        const store = yield* UnitOfWork.UnitOfWork
        const platform = yield* Fixtures.insertPlatform
        for (let round = 0; round < 24; round++) {
          const agent = AgentFixtures.agent(platform.id)
          yield* repo.insert(agent)
          const code = AgentFixtures.deviceCode(agent)
          yield* repo.insertDeviceCode(code)
          const token = AgentFixtures.hash()
          const deleting = round % 2 === 1
          const successor = AgentFixtures.deviceCode(agent, 10)
          const [redeemed] = yield* concurrently([
            store.transaction(repo.redeemDeviceCode(code.codeHash, token, Fixtures.at(20))),
            store.transaction(
              deleting ? repo.delete(platform.id, agent.id, Fixtures.at(20)) : repo.insertDeviceCode(successor)
            )
          ])
          const settled = Option.getOrThrow(yield* repo.findDeviceCode(code.codeHash))
          expect({
            redeemed: settled.redeemedAt !== undefined,
            invalidated: settled.invalidatedAt !== undefined
          }).toEqual({ redeemed, invalidated: !redeemed })
          const holder = yield* repo.findByTokenHash(token)
          expect(Option.isSome(holder)).toBe(redeemed && !deleting)
          if (!deleting) {
            expect(Option.map(yield* repo.findDeviceCode(successor.codeHash), (next) => next.invalidatedAt)).toEqual(
              Option.some(undefined)
            )
          }
        }
      })
  )

  it.effect("leaves the code usable and the agent unconnected when the unit of work that redeemed it fails", () =>
    Effect.gen(function* () {
      const repo = yield* AgentRepo.AgentRepo
      const store = yield* UnitOfWork.UnitOfWork
      const platform = yield* Fixtures.insertPlatform
      const agent = AgentFixtures.agent(platform.id)
      yield* repo.insert(agent)
      const code = AgentFixtures.deviceCode(agent)
      yield* repo.insertDeviceCode(code)
      const abandoned = AgentFixtures.hash()
      const failed = yield* Effect.either(
        store.transaction(
          Effect.zipRight(
            repo.redeemDeviceCode(code.codeHash, abandoned, Fixtures.at(1_000)),
            Effect.fail("abandoned" as const)
          )
        )
      )
      expect(failed).toEqual(Either.left("abandoned"))
      expect(yield* repo.findDeviceCode(code.codeHash)).toEqual(Option.some(code))
      expect(yield* repo.findById(platform.id, agent.id)).toEqual(Option.some(agent))
      expect(yield* repo.findByTokenHash(abandoned)).toEqual(Option.none())
      expect(yield* repo.redeemDeviceCode(code.codeHash, AgentFixtures.hash(), Fixtures.at(2_000))).toBe(true)
    })
  )
}
