import { Effect, Layer } from "effect"
import { Store } from "@payrail/core"
import { MemoryState } from "./MemoryState.js"

/** `Store` in memory: one unit of work at a time, rolled back on failure or interruption. */
export const layer = Layer.effect(
  Store.Store,
  Effect.map(MemoryState, (state) => ({ transaction: state.transaction }))
)
