import { Effect, Layer } from "effect"
import { type DomainEvent, Outbox } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "./MemoryState.js"

/** `Outbox` in memory: events in append order. */
export const layer = Layer.effect(
  Outbox.Outbox,
  Effect.gen(function* () {
    const state = yield* MemoryState
    // Keyed by a zero-padded sequence number, so insertion order is append order.
    const events = state.table<DomainEvent.DomainEvent>("outbox")
    const add = (event: DomainEvent.DomainEvent) => setEntry(events, String(events.size).padStart(12, "0"), event)
    return {
      append: (event) => state.write(() => [undefined, add(event)]),
      appendAll: (all) => state.write(() => [undefined, undoAll(all.map(add))]),
      pending: (limit) => Effect.sync(() => Array.from(events.values()).slice(0, limit))
    }
  })
)
