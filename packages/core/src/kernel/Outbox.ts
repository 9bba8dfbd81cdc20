import { Context, type Effect, type Option } from "effect"
import type { DomainEvent, EventId } from "./DomainEvent.js"
import type { OutboxPosition } from "./OutboxPosition.js"
import type { PlatformId } from "./PlatformId.js"
import type { StoreFailure } from "./StoreFailure.js"

/**
 * The transactional outbox. `append` inside `UnitOfWork.transaction` commits the event with the change it reports;
 * a delivery worker (a later capability) reads pending events in append order.
 */
export class Outbox extends Context.Tag("@payrail/core/Outbox")<
  Outbox,
  {
    readonly append: (event: DomainEvent) => Effect.Effect<void, StoreFailure>
    /**
     * Appends every event, in the given order, atomically (one statement on SQL adapters; none for an empty list):
     * what `append` of each in turn would do.
     */
    readonly appendAll: (events: ReadonlyArray<DomainEvent>) => Effect.Effect<void, StoreFailure>
    /** Events not yet delivered, oldest first, at most `limit`. */
    readonly pending: (limit: number) => Effect.Effect<ReadonlyArray<DomainEvent>, StoreFailure>
    /** The event with this id, delivered or not (what a delivery job loads). */
    readonly findById: (id: EventId) => Effect.Effect<Option.Option<DomainEvent>, StoreFailure>
    /**
     * The platform's events appended after `after`, delivered or not, in the order their units of work committed
     * (`OutboxPosition`), at most `limit`, each with its position. Only committed events are returned, and an event
     * never becomes readable before one that sorts ahead of it: a reader that resumes from the position of the last
     * event it read misses none and reads none twice, on any number of server instances sharing the store.
     * With `after` absent, no events and the position of the platform's latest readable event (the start when it
     * has none): where to read from "now".
     */
    readonly feed: (
      platformId: PlatformId,
      after: Option.Option<OutboxPosition>,
      limit: number
    ) => Effect.Effect<FeedRead, StoreFailure>
  }
>() {}

/** What one read of a platform's event feed found: its events, oldest first, and where the next read resumes. */
export interface FeedRead {
  readonly events: ReadonlyArray<{ readonly event: DomainEvent; readonly position: OutboxPosition }>
  /** The position of the last event returned; `after` when there was none (the latest event without `after`). */
  readonly position: OutboxPosition
}
