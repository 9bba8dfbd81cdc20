import { type Context, Effect, Layer, Option } from "effect"
import { type DomainEvent, Outbox } from "@payrail/core"
import { MemoryState, setEntry, undoAll } from "./MemoryState.js"

/** The outbox's events, keyed by a zero-padded sequence number, so insertion order is append order. */
export const eventsOf = (state: Context.Tag.Service<MemoryState>): Map<string, DomainEvent.DomainEvent> =>
  state.table<DomainEvent.DomainEvent>("outbox")

/** Appends `event` to `events` (from `eventsOf`); returns the undo. Call it inside a `MemoryState.write`. */
export const appendTo = (events: Map<string, DomainEvent.DomainEvent>, event: DomainEvent.DomainEvent): (() => void) =>
  setEntry(events, String(events.size).padStart(12, "0"), event)

/** `Outbox` in memory: events in append order; `findById` scans them (memory is for tests and demos). */
export const layer = Layer.effect(
  Outbox.Outbox,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const events = eventsOf(state)
    const add = (event: DomainEvent.DomainEvent) => appendTo(events, event)
    return {
      append: (event) => state.write(() => [undefined, add(event)]),
      appendAll: (all) => state.write(() => [undefined, undoAll(all.map(add))]),
      pending: (limit) => Effect.sync(() => Array.from(events.values()).slice(0, limit)),
      findById: (id) =>
        Effect.sync(() => Option.fromNullable(Array.from(events.values()).find((event) => event.id === id)))
    }
  })
)
