import { Effect, Layer, Option } from "effect"
import { IncomingDecisionRepo, type IncomingDecision } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly platformId: string
  readonly decision: IncomingDecision.IncomingDecision
}

/**
 * `IncomingDecisionRepo` in memory, with the SQL adapter's rules: one decision per transaction (a second insert fails
 * with `StoreFailure` and changes nothing), every read and decision scoped to the platform, and `decide` checks
 * `AWAITING` and replaces the record in one atomic step, so exactly one of concurrent decisions applies; a unit of
 * work that fails undoes it.
 */
export const layer: Layer.Layer<IncomingDecisionRepo.IncomingDecisionRepo, never, MemoryState> = Layer.effect(
  IncomingDecisionRepo.IncomingDecisionRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("incomingDecisions")

    const find = (platformId: string, id: string) =>
      Option.fromNullable(rows.get(id)).pipe(Option.filter((row) => row.platformId === platformId))

    return {
      insert: (platformId, decision) =>
        insertNew(state, rows, "incomingDecisions.insert", decision.transactionId, { platformId, decision }),
      find: (platformId, transactionId) =>
        Effect.sync(() => Option.map(find(platformId, transactionId), (row) => row.decision)),
      decide: (platformId, next) =>
        state.write((): readonly [boolean, () => void] => {
          const found = find(platformId, next.transactionId)
          if (Option.isNone(found) || found.value.decision.status !== "AWAITING") return [false, () => {}]
          return [true, setEntry(rows, next.transactionId, { platformId, decision: next })]
        })
    }
  })
)
