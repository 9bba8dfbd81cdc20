import { Schema } from "effect"
import * as ResourceId from "./ResourceId.js"
import { PlatformId } from "./PlatformId.js"

/** `Webhook:<uuid>`: the id a receiver uses to de-duplicate deliveries of one event. */
export const EventId = ResourceId.make("Webhook")
export type EventId = typeof EventId.Type

/**
 * Something that happened to a platform's resources, recorded in the outbox in the same unit of work as the
 * change itself. `data` is the resource in its encoded (wire) form, so a delivery needs no further lookups.
 */
export class DomainEvent extends Schema.Class<DomainEvent>("DomainEvent")({
  id: EventId,
  platformId: PlatformId,
  type: Schema.String,
  timestamp: Schema.DateTimeUtc,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}) {}
