import { Context, type Effect, type Option } from "effect"
import type { Page, PlatformId, StoreFailure } from "../kernel/index.js"
import type { DeliveryStatus, Expected, WebhookDelivery, WebhookDeliveryId } from "./WebhookDelivery.js"

/** Filters of the delivery log. */
export interface DeliveryFilter {
  readonly status?: DeliveryStatus | undefined
  readonly eventType?: string | undefined
}

/**
 * The webhook delivery log, always scoped to one platform.
 *
 * Concurrency: one delivery exists per (event, endpoint URL), enforced by the store, so concurrent `open`s of one
 * pair answer the same delivery. `update` is a compare-and-set on the status and attempt count it was computed
 * from: of concurrent updates from one state exactly one applies.
 */
export class WebhookDeliveryRepo extends Context.Tag("@payrail/core/WebhookDeliveryRepo")<
  WebhookDeliveryRepo,
  {
    /** Stores `delivery` unless one exists for its (event, URL); answers the stored one either way. */
    readonly open: (delivery: WebhookDelivery) => Effect.Effect<WebhookDelivery, StoreFailure.StoreFailure>
    /** Replaces the delivery with `next` if it is still as `expected`; answers whether it applied. */
    readonly update: (next: WebhookDelivery, expected: Expected) => Effect.Effect<boolean, StoreFailure.StoreFailure>
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
