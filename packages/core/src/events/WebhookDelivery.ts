import { DateTime, Schema } from "effect"
import { DomainEvent, PlatformId, ResourceId, SchemaClass, Timestamp } from "../kernel/index.js"

/** `WebhookDelivery:<uuid>`: the delivery of one event to one endpoint. */
export const WebhookDeliveryId = ResourceId.make("WebhookDelivery")
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type

/**
 * Where a delivery stands (a delivery is stored with its first attempt): `PENDING` waits for the attempt a manual
 * redelivery asked for; `DELIVERED` got a 2xx or a
 * 409 (the receiver already had it); `FAILED` got anything else and retries at `nextAttemptAt`; `DEAD` gave up
 * after the retry window.
 */
export const DeliveryStatus = Schema.Literal("PENDING", "DELIVERED", "FAILED", "DEAD")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** The delivery of one outbox event to one endpoint URL, with the outcome of its latest attempt. */
export class WebhookDelivery extends SchemaClass.Class<WebhookDelivery>("WebhookDelivery")({
  id: WebhookDeliveryId,
  platformId: PlatformId.PlatformId,
  eventId: DomainEvent.EventId,
  eventType: Schema.String,
  url: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.NonNegativeInt,
  lastResponseStatus: Schema.optional(Schema.Int),
  lastLatencyMillis: Schema.optional(Schema.NonNegativeInt),
  lastError: Schema.optional(Schema.String),
  lastAttemptAt: Schema.optional(Schema.DateTimeUtc),
  nextAttemptAt: Schema.optional(Schema.DateTimeUtc),
  /** Where the retry window starts: the creation, or the latest manual redelivery. */
  retriesSince: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}) {}

/**
 * `delivery` in its encoded form, as `Schema.encode(WebhookDelivery)` gives it, without the schema's checks: a store
 * records deliveries thousands of times a second, each built from a decoded one and an attempt's outcome, so its
 * type already holds every constraint (a property test keeps the two encodings equal). `iso` formats its times: a
 * caller encoding a batch passes one `Timestamp.isoFormatter` for all, whose times are mostly the batch's one instant.
 */
export const encode = (
  delivery: WebhookDelivery,
  iso: (instant: DateTime.Utc) => string = Timestamp.isoFormatter()
): typeof WebhookDelivery.Encoded => ({
  id: delivery.id,
  platformId: delivery.platformId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  url: delivery.url,
  status: delivery.status,
  attempts: delivery.attempts,
  lastResponseStatus: delivery.lastResponseStatus,
  lastLatencyMillis: delivery.lastLatencyMillis,
  lastError: delivery.lastError,
  lastAttemptAt: delivery.lastAttemptAt === undefined ? undefined : iso(delivery.lastAttemptAt),
  nextAttemptAt: delivery.nextAttemptAt === undefined ? undefined : iso(delivery.nextAttemptAt),
  retriesSince: iso(delivery.retriesSince),
  createdAt: iso(delivery.createdAt),
  updatedAt: iso(delivery.updatedAt)
})

/** A delivery's fields as a plain object: a stored delivery's, or a new one's not yet built (`pendingFields`). */
export type Fields = Schema.Struct.Type<typeof WebhookDelivery.fields>

/** The fields of a new, not yet attempted delivery of `event` to `url`, due at once. */
export const pendingFields = (
  id: WebhookDeliveryId,
  event: DomainEvent.DomainEvent,
  url: string,
  now: DateTime.Utc
): Fields => ({
  id,
  platformId: event.platformId,
  eventId: event.id,
  eventType: event.type,
  url,
  status: "PENDING",
  attempts: 0,
  nextAttemptAt: now,
  retriesSince: now,
  createdAt: now,
  updatedAt: now
})

/**
 * A new, not yet attempted delivery of `event` to `url`, due at once. Built without the constructor's validation:
 * its fields are the event's, `url` and `now`, which their types already constrain.
 */
export const pending = (
  id: WebhookDeliveryId,
  event: DomainEvent.DomainEvent,
  url: string,
  now: DateTime.Utc
): WebhookDelivery => new WebhookDelivery(pendingFields(id, event, url, now), { disableValidation: true })

/** The guard of a delivery update: the status and attempt count the update was computed from. */
export interface Expected {
  readonly status: DeliveryStatus
  readonly attempts: number
}

/** The guard that matches `delivery` as read. */
export const expectedOf = (delivery: Fields): Expected => ({
  status: delivery.status,
  attempts: delivery.attempts
})

/** Whether the delivery is settled for good (no attempt will change it, short of a manual redelivery). */
export const isSettled = (delivery: Fields): boolean => delivery.status === "DELIVERED" || delivery.status === "DEAD"

/** Newest first, as lists show deliveries. */
export const keyOf = (delivery: WebhookDelivery) => ({ createdAt: delivery.createdAt, id: delivery.id })
