import { Context, type DateTime, type Effect, type Option, type Redacted } from "effect"
import type { DomainEvent, Page, PlatformId, StoreFailure } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { DeliveryStatus, Expected, WebhookDelivery, WebhookDeliveryId } from "./WebhookDelivery.js"

/** Filters of the delivery log. */
export interface DeliveryFilter {
  readonly status?: DeliveryStatus | undefined
  readonly eventType?: string | undefined
}

/** Where an event's webhooks go: its platform's `webhookEndpoint`, and whose endpoint it is (the SSRF rules differ). */
export interface Endpoint {
  readonly url: string
  readonly environment: Platform.Environment
}

/** What one delivery attempt of an outbox event needs, as the store holds it at the time of the read. */
export interface AttemptSource {
  readonly event: DomainEvent.DomainEvent
  /** None when the event's platform is gone or has no `webhookEndpoint`. */
  readonly endpoint: Option.Option<Endpoint>
  /** The platform's signing secrets active at the request's `now`, newest first (`WebhookSecretRepo.active`). */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  /** The delivery of the event to `endpoint.url`, when one exists (none before its first attempt). */
  readonly delivery: Option.Option<WebhookDelivery>
}

/** An attempt's outcome to record: `next`, under the guard `expected` (none: no delivery existed when it was read). */
export interface Recorded {
  readonly next: WebhookDelivery
  readonly expected: Option.Option<Expected>
}

/**
 * The webhook delivery log, always scoped to one platform.
 *
 * Concurrency: one delivery exists per (event, endpoint URL), enforced by the store, so concurrent `open`s of one
 * pair answer the same delivery. `update` is a compare-and-set on the status and attempt count it was computed
 * from: of concurrent updates from one state exactly one applies. `recordAll` applies each of its entries as `open`
 * (without reading back) or `update` would, atomically per entry: of concurrent first attempts of one pair exactly
 * one is stored.
 */
export class WebhookDeliveryRepo extends Context.Tag("@payrail/core/WebhookDeliveryRepo")<
  WebhookDeliveryRepo,
  {
    /** Stores `delivery` unless one exists for its (event, URL); answers the stored one either way. */
    readonly open: (delivery: WebhookDelivery) => Effect.Effect<WebhookDelivery, StoreFailure.StoreFailure>
    /** Replaces the delivery with `next` if it is still as `expected`; answers whether it applied. */
    readonly update: (next: WebhookDelivery, expected: Expected) => Effect.Effect<boolean, StoreFailure.StoreFailure>
    /**
     * The source of an attempt of each event (none for an event not in the outbox), in the order asked: one read for
     * many events (one statement on SQL adapters), so a worker's batch of attempts costs the store one round trip.
     */
    readonly sources: (
      requests: ReadonlyArray<{ readonly eventId: DomainEvent.EventId; readonly now: DateTime.Utc }>
    ) => Effect.Effect<ReadonlyArray<Option.Option<AttemptSource>>, StoreFailure.StoreFailure>
    /**
     * Records the outcome of many attempts at once (one statement on SQL adapters), answering for each whether it
     * applied: an entry without `expected` stores `next` unless the (event, URL) pair already has a delivery; one with
     * `expected` replaces the delivery as `update` does.
     */
    readonly recordAll: (
      attempts: ReadonlyArray<Recorded>
    ) => Effect.Effect<ReadonlyArray<boolean>, StoreFailure.StoreFailure>
    readonly findById: (
      platformId: PlatformId.PlatformId,
      id: WebhookDeliveryId
    ) => Effect.Effect<Option.Option<WebhookDelivery>, StoreFailure.StoreFailure>
    /** A keyset page of the platform's deliveries, newest first by `(createdAt, id)`, with the matching count. */
    readonly list: (
      platformId: PlatformId.PlatformId,
      filter: DeliveryFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<WebhookDelivery>, StoreFailure.StoreFailure>
  }
>() {}
