import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Errors, JsonObject, WebhookDelivery } from "@payrail/core"
import { ErrorBody, FieldErrorReport, ListQuery } from "../kernel/index.js"
import { Authentication } from "../platforms/index.js"

const { wire } = ErrorBody
const { reportFieldErrors } = FieldErrorReport
const { ListResponse, pageParams } = ListQuery

/** 404 `NOT_FOUND` for a webhook delivery. */
export const WebhookDeliveryNotFoundBody = wire(
  Errors.WebhookDeliveryNotFound,
  404,
  "No such webhook delivery on this platform"
)

/** An absolute http or https URL of at most 2048 characters. */
export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((text) => URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol), {
    description: "an absolute http or https URL",
    jsonSchema: { format: "uri" }
  })
).annotations({ identifier: "WebhookUrl" })

/** Query of the delivery log: `status`, `eventType` and paging. */
export const DeliveryListParams = reportFieldErrors(
  Schema.Struct({
    status: Schema.optional(WebhookDelivery.DeliveryStatus),
    eventType: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))),
    ...pageParams
  })
)

const DeliveryPath = reportFieldErrors(Schema.Struct({ deliveryId: WebhookDelivery.WebhookDeliveryId }))

/** The new signing secret, shown once, and until when the previous ones keep signing beside it. */
export const RotatedSecret = Schema.Struct({
  webhookSecret: Schema.String.annotations({ description: "The new `whsec_…` signing secret; shown only now" }),
  previousSecretsExpireAt: Schema.DateTimeUtc.annotations({
    description: "Until this time deliveries also carry a signature by the previous secret(s)"
  })
}).annotations({ identifier: "WebhookSecretRotation" })

/** Body of the sandbox test webhook: where to send it instead of the configured endpoint. */
export const TestWebhookRequest = reportFieldErrors(
  Schema.Struct({ url: Schema.optional(WebhookUrl) }).annotations({
    identifier: "TestWebhookRequest",
    parseOptions: { onExcessProperty: "error" }
  })
)

/** What the receiver of the test webhook answered (snake_case, as the reference has it). */
export const TestWebhookResponse = Schema.Struct({
  url: Schema.String,
  response_status: Schema.Int,
  response_body: Schema.optional(Schema.String)
}).annotations({ identifier: "TestWebhookResponse" })

/** Query of the event feed: `after` (a previous read's `cursor`; absent: start from now) and `limit` (1-100). */
export const EventFeedParams = reportFieldErrors(
  Schema.Struct({
    after: Schema.optional(
      Schema.String.pipe(Schema.maxLength(200)).annotations({
        description: "The `cursor` of the previous read; absent, the answer has no events and the cursor of now"
      })
    ),
    limit: Schema.optional(
      ListQuery.Limit.annotations({ description: "Most events to answer, 1 to 100 (default 100)" })
    )
  })
)

/** An event as its webhook carries it: `{id, type, timestamp, data?}` (`data` absent for `TEST`). */
export const FeedEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  timestamp: Schema.DateTimeUtc,
  data: Schema.optional(JsonObject.JsonObject)
}).annotations({ identifier: "WebhookEvent" })

/** A read of the event feed: events oldest first, where to resume, and whether to read again at once. */
export const EventFeedResponse = Schema.Struct({
  data: Schema.Array(FeedEvent),
  cursor: Schema.String.annotations({ description: "Pass it as `after` to read the events that follow" }),
  hasMore: Schema.Boolean
}).annotations({ identifier: "WebhookEventFeed" })

/** Webhook signing secrets, the delivery log with manual redelivery, and the sandbox test webhook. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("rotateSecret", "/webhooks/secret/rotate")
      .addSuccess(RotatedSecret)
      .annotate(OpenApi.Summary, "Rotate the webhook signing secret (the new one is shown once)")
  )
  .add(
    HttpApiEndpoint.get("listDeliveries", "/webhooks/deliveries")
      .setUrlParams(DeliveryListParams)
      .addSuccess(ListResponse(WebhookDelivery.WebhookDelivery, "WebhookDeliveryListResponse"))
      .annotate(OpenApi.Summary, "List webhook deliveries, newest first")
  )
  .add(
    HttpApiEndpoint.get("getDelivery", "/webhooks/deliveries/:deliveryId")
      .setPath(DeliveryPath)
      .addSuccess(WebhookDelivery.WebhookDelivery)
      .addError(WebhookDeliveryNotFoundBody)
      .annotate(OpenApi.Summary, "Get a webhook delivery")
  )
  .add(
    HttpApiEndpoint.post("redeliver", "/webhooks/deliveries/:deliveryId/redeliver")
      .setPath(DeliveryPath)
      .addSuccess(WebhookDelivery.WebhookDelivery)
      .addError(WebhookDeliveryNotFoundBody)
      .annotate(OpenApi.Summary, "Deliver a webhook again (it becomes PENDING, due now)")
  )
  .add(
    HttpApiEndpoint.post("sendTest", "/sandbox/webhooks/test")
      .setPayload(TestWebhookRequest)
      .addSuccess(TestWebhookResponse)
      .addError(wire(Errors.WebhookEndpointNotSet, 400, "No webhook endpoint is configured and no url was given"))
      .addError(wire(Errors.WebhookDeliveryError, 400, "The test webhook got no HTTP answer"))
      .addError(wire(Errors.SandboxOnly, 403, "Only sandbox platforms can send test webhooks"))
      .annotate(OpenApi.Summary, "Sandbox: send a signed TEST webhook now and see the receiver's answer")
  )
  .add(
    HttpApiEndpoint.get("eventFeed", "/webhooks/events")
      .setUrlParams(EventFeedParams)
      .addSuccess(EventFeedResponse)
      .annotate(
        OpenApi.Summary,
        "Read the platform's events in commit order, from a cursor (what `payrail webhooks listen` follows)"
      )
  )
  .addError(Authentication.PermissionDeniedBody)
  .middleware(Authentication.Authentication)
  .annotate(OpenApi.Title, "Webhooks")
  .annotate(
    OpenApi.Description,
    "Signed webhook delivery (Standard Webhooks): the signing secret, the delivery log and redelivery, and the sandbox test webhook."
  ) {}
