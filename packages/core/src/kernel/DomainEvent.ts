import { DateTime, Effect, Schema } from "effect"
import { Ids } from "./Ids.js"
import * as ResourceId from "./ResourceId.js"
import { PlatformId } from "./PlatformId.js"
import * as SchemaClass from "./SchemaClass.js"

/** `Webhook:<uuid>`: the id a receiver uses to de-duplicate deliveries of one event. */
export const EventId = ResourceId.make("Webhook")
export type EventId = typeof EventId.Type

/**
 * Something that happened to a platform's resources, recorded in the outbox in the same unit of work as the
 * change itself. `data` is the resource in its encoded (wire) form, so a delivery needs no further lookups.
 */
export class DomainEvent extends SchemaClass.Class<DomainEvent>("DomainEvent")({
  id: EventId,
  platformId: PlatformId,
  type: Schema.String,
  timestamp: Schema.DateTimeUtc,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}) {}

/**
 * A new event of `type` about `data` (a resource in its wire form), with a fresh `Webhook:<uuid>` id and the current
 * time. Each context passes its own literal union of event types (`CustomerEvents.CustomerEventType`…).
 */
export const make = <T extends string>(
  platformId: PlatformId,
  type: T,
  data: { readonly [key: string]: unknown }
): Effect.Effect<DomainEvent, never, Ids> =>
  Effect.gen(function* () {
    const id = EventId.make(ResourceId.format("Webhook", yield* (yield* Ids).uuid))
    // Every field is already what the schema checks (the id just decoded, the others typed): the constructor's
    // validation would only repeat it, for every event of every state change.
    return new DomainEvent({ id, platformId, type, timestamp: yield* DateTime.now, data }, { disableValidation: true })
  })
