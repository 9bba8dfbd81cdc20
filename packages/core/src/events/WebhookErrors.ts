import { Schema } from "effect"

/** A test webhook was asked for, but the platform has no `webhookEndpoint` and no `url` was given. 400. */
export class WebhookEndpointNotSet extends Schema.TaggedError<WebhookEndpointNotSet>()("WebhookEndpointNotSet", {
  code: Schema.tag("WEBHOOK_ENDPOINT_NOT_SET"),
  reason: Schema.String,
  details: Schema.Struct({ rule: Schema.Literal("webhook_endpoint_required") })
}) {
  static of(): WebhookEndpointNotSet {
    return new WebhookEndpointNotSet({
      reason: "No webhook endpoint is configured: set webhookEndpoint with PATCH /config or pass a url",
      details: { rule: "webhook_endpoint_required" }
    })
  }
}

/**
 * A test webhook got no HTTP answer: the URL was refused (not https, or a forbidden address for a production
 * platform), or the connection failed or timed out. `details.kind` says which. 400.
 */
export class WebhookDeliveryError extends Schema.TaggedError<WebhookDeliveryError>()("WebhookDeliveryError", {
  code: Schema.tag("WEBHOOK_DELIVERY_ERROR"),
  reason: Schema.String,
  details: Schema.Struct({ url: Schema.String, kind: Schema.String, message: Schema.String })
}) {
  static of(url: string, kind: string, message: string): WebhookDeliveryError {
    return new WebhookDeliveryError({
      reason: "The webhook could not be delivered",
      details: { url, kind, message }
    })
  }
}

/** No delivery with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class WebhookDeliveryNotFound extends Schema.TaggedError<WebhookDeliveryNotFound>()("WebhookDeliveryNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ deliveryId: Schema.String })
}) {
  static of(deliveryId: string): WebhookDeliveryNotFound {
    return new WebhookDeliveryNotFound({ reason: "Webhook delivery not found", details: { deliveryId } })
  }
}
