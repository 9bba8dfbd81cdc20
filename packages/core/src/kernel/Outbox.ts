import { Context, type Effect, type Option } from "effect"
import type { DomainEvent, EventId } from "./DomainEvent.js"
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
  }
>() {}
