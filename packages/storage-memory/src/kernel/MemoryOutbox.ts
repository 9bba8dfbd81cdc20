import { type Context, Effect, Layer, Option } from "effect"
import { type DomainEvent, type Jobs, Outbox, OutboxPosition, type PlatformRepo } from "@payrail/core"
import { enqueueDeliveries } from "./MemoryDeliveryJobs.js"
import { MemoryState, setEntry, undoAll } from "./MemoryState.js"

/** The outbox's events, keyed by a zero-padded sequence number, so insertion order is append order. */
export const eventsOf = (state: Context.Tag.Service<MemoryState>): Map<string, DomainEvent.DomainEvent> =>
  state.table<DomainEvent.DomainEvent>("outbox")

/** Appends `event` to `events` (from `eventsOf`); returns the undo. Call it inside a `MemoryState.write`. */
export const appendTo = (events: Map<string, DomainEvent.DomainEvent>, event: DomainEvent.DomainEvent): (() => void) =>
  setEntry(events, String(events.size).padStart(12, "0"), event)

/**
 * `Outbox` in memory: events in append order; `findById` scans them (memory is for tests and demos). Appending an
 * event of a platform with a webhook endpoint enqueues its delivery job, in the caller's unit of work.
 */
export const layer: Layer.Layer<Outbox.Outbox, never, MemoryState | Jobs.Jobs | PlatformRepo.PlatformRepo> =
  Layer.effect(
    Outbox.Outbox,
    Effect.gen(function* () {
      const state = yield* MemoryState
      const deliveries = Effect.provide(yield* Effect.context<Jobs.Jobs | PlatformRepo.PlatformRepo>())
      const events = eventsOf(state)
      const add = (event: DomainEvent.DomainEvent) => appendTo(events, event)
      return {
        append: (event) =>
          state.write(() => [undefined, add(event)]).pipe(Effect.zipRight(deliveries(enqueueDeliveries([event])))),
        appendAll: (all) =>
          state
            .write(() => [undefined, undoAll(all.map(add))])
            .pipe(Effect.zipRight(deliveries(enqueueDeliveries(all)))),
        pending: (limit) => Effect.sync(() => Array.from(events.values()).slice(0, limit)),
        // Read under the write lock, so a unit of work still open (whose events could yet roll back, freeing their
        // keys) is waited for: the feed shows committed events only. An event's position is its key, plus one.
        feed: (platformId, after, limit) =>
          state.write(() => {
            const found: Array<{ event: DomainEvent.DomainEvent; position: OutboxPosition.OutboxPosition }> = []
            let latest = OutboxPosition.start
            let index = 0
            for (const event of events.values()) {
              index += 1
              if (event.platformId !== platformId) continue
              const position = { commit: 0n, seq: BigInt(index) }
              latest = position
              if (Option.isSome(after) && found.length < limit && OutboxPosition.isAfter(position, after.value)) {
                found.push({ event, position })
              }
            }
            const position = Option.isNone(after) ? latest : (found.at(-1)?.position ?? after.value)
            return [{ events: found, position }, () => {}]
          }),
        findById: (id) =>
          Effect.sync(() => Option.fromNullable(Array.from(events.values()).find((event) => event.id === id)))
      }
    })
  )
