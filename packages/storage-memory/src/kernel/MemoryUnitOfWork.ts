import { Effect, Layer } from "effect"
import { UnitOfWork } from "@payrail/core"
import { MemoryState } from "./MemoryState.js"

/** `UnitOfWork` in memory: one unit of work at a time, rolled back on failure or interruption. */
export const layer = Layer.effect(
  UnitOfWork.UnitOfWork,
  Effect.map(MemoryState, (state) => ({ transaction: state.transaction }))
)
