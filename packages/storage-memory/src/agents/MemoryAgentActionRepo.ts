import { DateTime, Effect, Layer, Option } from "effect"
import { type AgentAction, AgentActionRepo, Page } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

const keyOf = (action: AgentAction.StoredAgentAction): Page.Cursor => ({ createdAt: action.createdAt, id: action.id })

const matches = (action: AgentAction.StoredAgentAction, filter: AgentAction.AgentActionFilter): boolean =>
  (filter.agentId === undefined || action.agentId === filter.agentId) &&
  (filter.customerId === undefined || action.customerId === filter.customerId) &&
  (filter.status === undefined || action.status === filter.status) &&
  (filter.createdAfter === undefined || DateTime.greaterThanOrEqualTo(action.createdAt, filter.createdAfter)) &&
  (filter.createdBefore === undefined || DateTime.lessThanOrEqualTo(action.createdAt, filter.createdBefore))

/**
 * `AgentActionRepo` in memory, with the SQL adapter's rules: an id is inserted once; reads are scoped to the
 * platform; `findByTransactionId` answers the newest action about the transaction; `transition` stores the next state only while the status is `from`, in one atomic write; lists page by
 * `(createdAt, id)` in either order, with the total.
 */
export const layer: Layer.Layer<AgentActionRepo.AgentActionRepo, never, MemoryState> = Layer.effect(
  AgentActionRepo.AgentActionRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<AgentAction.StoredAgentAction>("agentActions")
    const own = (platformId: string, id: string) => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    return AgentActionRepo.AgentActionRepo.of({
      insert: (action) => insertNew(state, rows, "agentActions.insert", action.id, action),
      findById: (platformId, id) => Effect.sync(() => Option.fromNullable(own(platformId, id))),
      findByTransactionId: (platformId, transactionId) =>
        Effect.sync(() =>
          Option.fromNullable(
            Array.from(rows.values())
              .filter((row) => row.platformId === platformId && row.transactionId === transactionId)
              .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))[0]
          )
        ),
      list: (platformId, filter, page, sortOrder) =>
        Effect.sync(() => {
          const ordered = (a: AgentAction.StoredAgentAction, b: AgentAction.StoredAgentAction) =>
            sortOrder === "desc"
              ? Page.compareNewestFirst(keyOf(a), keyOf(b))
              : Page.compareNewestFirst(keyOf(b), keyOf(a))
          const matching = Array.from(rows.values())
            .filter((row) => row.platformId === platformId && matches(row, filter))
            .sort(ordered)
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((row) =>
                sortOrder === "desc" ? Page.isAfter(keyOf(row), after.value) : Page.isAfter(after.value, keyOf(row))
              )
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      transition: (from, next) =>
        state.write((): readonly [boolean, () => void] => {
          const current = own(next.platformId, next.id)
          if (current === undefined || current.status !== from) return [false, () => {}]
          return [true, setEntry(rows, next.id, next)]
        })
    })
  })
)
