import { DateTime, Effect, Layer, Option } from "effect"
import { CardReveal } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row {
  readonly reveal: CardReveal.StoredReveal
  readonly used: boolean
}

/**
 * `CardRevealRepo` in memory, with the SQL adapter's rules: a token is inserted once; `consume` marks it used in
 * one atomic write, only while unused and before its `expiresAt`.
 */
export const layer: Layer.Layer<CardReveal.CardRevealRepo, never, MemoryState> = Layer.effect(
  CardReveal.CardRevealRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("cardReveals")
    return CardReveal.CardRevealRepo.of({
      insert: (reveal) => insertNew(state, rows, "cardReveals.insert", reveal.tokenHash, { reveal, used: false }),
      find: (tokenHash) => Effect.sync(() => Option.map(Option.fromNullable(rows.get(tokenHash)), (row) => row.reveal)),
      consume: (tokenHash, now) =>
        state.write((): readonly [Option.Option<CardReveal.StoredReveal>, () => void] => {
          const row = rows.get(tokenHash)
          if (row === undefined || row.used || !DateTime.lessThan(now, row.reveal.expiresAt)) {
            return [Option.none(), () => {}]
          }
          return [Option.some(row.reveal), setEntry(rows, tokenHash, { ...row, used: true })]
        })
    })
  })
)
