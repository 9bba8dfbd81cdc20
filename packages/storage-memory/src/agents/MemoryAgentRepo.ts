import { DateTime, Effect, Layer, Option } from "effect"
import { type Agent, type AgentDeviceCode, AgentRepo, Errors, Page } from "@payrail/core"
import { insertNew, MemoryState, setEntry, undoAll } from "../kernel/MemoryState.js"

interface Row extends Agent.AgentRecord {
  readonly deletedAt: DateTime.Utc | undefined
}

const keyOf = (agent: Agent.AgentRecord): Page.Cursor => ({ createdAt: agent.createdAt, id: agent.id })

const record = ({ deletedAt: _, ...agent }: Row): Agent.AgentRecord => agent

const within = (at: DateTime.Utc, after: DateTime.Utc | undefined, before: DateTime.Utc | undefined): boolean =>
  (after === undefined || DateTime.greaterThanOrEqualTo(at, after)) &&
  (before === undefined || DateTime.lessThanOrEqualTo(at, before))

const matches = (agent: Agent.AgentRecord, filter: Agent.AgentFilter): boolean =>
  (filter.customerId === undefined || agent.customerId === filter.customerId) &&
  (filter.isPaused === undefined || agent.isPaused === filter.isPaused) &&
  (filter.isConnected === undefined || agent.isConnected === filter.isConnected) &&
  within(agent.createdAt, filter.createdAfter, filter.createdBefore) &&
  within(agent.updatedAt, filter.updatedAfter, filter.updatedBefore)

/**
 * `AgentRepo` in memory, with the SQL adapter's rules: an id is inserted once; reads and writes are scoped to the
 * platform and never see deleted agents; `update` is a compare-and-set on the version; `redeemDeviceCode` checks
 * the code and the agent and marks both in one atomic step (exactly one of concurrent redeems wins). Writes join
 * the caller's unit of work.
 */
export const layer: Layer.Layer<AgentRepo.AgentRepo, never, MemoryState> = Layer.effect(
  AgentRepo.AgentRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const agents = state.table<Row>("agents")
    const codes = state.table<AgentDeviceCode.StoredDeviceCode>("agentDeviceCodes")

    const live = (platformId: string, id: string): Row | undefined => {
      const row = agents.get(id)
      return row !== undefined && row.platformId === platformId && row.deletedAt === undefined ? row : undefined
    }

    // Invalidates the agent's unredeemed, still valid codes at `at`; returns the undo.
    const invalidateCodes = (agentId: string, at: DateTime.Utc): (() => void) =>
      undoAll(
        Array.from(codes.values())
          .filter(
            (code) => code.agentId === agentId && code.redeemedAt === undefined && code.invalidatedAt === undefined
          )
          .map((code) => setEntry(codes, code.codeHash, { ...code, invalidatedAt: at }))
      )

    return AgentRepo.AgentRepo.of({
      insert: (agent) =>
        insertNew(state, agents, "agents.insert", agent.id, { ...agent, version: 1, deletedAt: undefined }),
      findById: (platformId, id) => Effect.sync(() => Option.map(Option.fromNullable(live(platformId, id)), record)),
      list: (platformId, filter, page) =>
        Effect.sync(() => {
          const matching = Array.from(agents.values())
            .filter((row) => row.platformId === platformId && row.deletedAt === undefined && matches(row, filter))
            .map(record)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((agent) => Page.isAfter(keyOf(agent), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      update: (next, expectedVersion) =>
        state.write((): readonly [boolean, () => void] => {
          const current = live(next.platformId, next.id)
          if (current === undefined || current.version !== expectedVersion) return [false, () => {}]
          return [true, setEntry(agents, next.id, { ...next, version: expectedVersion + 1, deletedAt: undefined })]
        }),
      delete: (platformId, id, at) =>
        state.write((): readonly [boolean, () => void] => {
          const current = live(platformId, id)
          if (current === undefined) return [false, () => {}]
          return [
            true,
            undoAll([
              setEntry(agents, id, { ...current, tokenHash: undefined, version: current.version + 1, deletedAt: at }),
              invalidateCodes(id, at)
            ])
          ]
        }),
      findByTokenHash: (tokenHash) =>
        Effect.sync(() => {
          for (const row of agents.values()) {
            if (row.tokenHash === tokenHash && row.deletedAt === undefined) return Option.some(record(row))
          }
          return Option.none()
        }),
      insertDeviceCode: (code) =>
        Effect.flatten(
          state.write((): readonly [Effect.Effect<void, Errors.StoreFailure>, () => void] => {
            if (codes.has(code.codeHash)) {
              return [Effect.fail(Errors.StoreFailure.of("agentDeviceCodes.insert", "duplicate id")), () => {}] as const
            }
            return [
              Effect.void,
              undoAll([invalidateCodes(code.agentId, code.createdAt), setEntry(codes, code.codeHash, code)])
            ]
          })
        ),
      findDeviceCode: (codeHash) => Effect.sync(() => Option.fromNullable(codes.get(codeHash))),
      redeemDeviceCode: (codeHash, tokenHash, at) =>
        state.write((): readonly [boolean, () => void] => {
          const code = codes.get(codeHash)
          if (
            code === undefined ||
            code.redeemedAt !== undefined ||
            code.invalidatedAt !== undefined ||
            DateTime.lessThanOrEqualTo(code.expiresAt, at)
          ) {
            return [false, () => {}]
          }
          const agent = live(code.platformId, code.agentId)
          if (agent === undefined || agent.isConnected) return [false, () => {}]
          return [
            true,
            undoAll([
              setEntry(codes, codeHash, { ...code, redeemedAt: at }),
              setEntry(agents, agent.id, {
                ...agent,
                isConnected: true,
                tokenHash,
                updatedAt: at,
                version: agent.version + 1
              })
            ])
          ]
        })
    })
  })
)
