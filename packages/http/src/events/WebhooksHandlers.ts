import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, type Layer, Option, Redacted } from "effect"
import { Caller, EventFeed, WebhookDeliveries, WebhookDispatch, WebhookEnvelope, WebhookSecrets } from "@payrail/core"
import { type Authentication, PayrailApi } from "@payrail/api"
import { pageRequest } from "../internal/pageRequest.js"

/** Handlers of webhooks: secret rotation (MANAGE), the delivery log (VIEW), redelivery and the test webhook (MANAGE). */
export const layer: Layer.Layer<
  HttpApiGroup.ApiGroup<"payrail", "webhooks">,
  never,
  | WebhookSecrets.WebhookSecrets
  | WebhookDeliveries.WebhookDeliveries
  | WebhookDispatch.WebhookDispatch
  | EventFeed.EventFeed
  | Authentication.Authentication
> = HttpApiBuilder.group(PayrailApi.PayrailApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const secrets = yield* WebhookSecrets.WebhookSecrets
    const deliveries = yield* WebhookDeliveries.WebhookDeliveries
    const dispatch = yield* WebhookDispatch.WebhookDispatch
    const feed = yield* EventFeed.EventFeed
    return handlers
      .handle("rotateSecret", () =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("MANAGE")
          const issued = yield* secrets.rotate(caller.platform.id)
          return { webhookSecret: Redacted.value(issued.secret), previousSecretsExpireAt: issued.previousExpiresAt }
        })
      )
      .handle("listDeliveries", ({ urlParams: { cursor, limit, ...filter } }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          return yield* deliveries.list(caller.platform.id, filter, yield* pageRequest(limit, cursor))
        })
      )
      .handle("getDelivery", ({ path }) =>
        Effect.flatMap(Caller.require("VIEW"), (caller) => deliveries.get(caller.platform.id, path.deliveryId))
      )
      .handle("redeliver", ({ path }) =>
        Effect.flatMap(Caller.require("MANAGE"), (caller) => deliveries.redeliver(caller.platform.id, path.deliveryId))
      )
      .handle("eventFeed", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("VIEW")
          const page = yield* feed.read(
            caller.platform.id,
            Option.fromNullable(urlParams.after),
            urlParams.limit ?? EventFeed.maxLimit
          )
          return {
            data: page.events.map(({ data, id, timestamp, type }) =>
              type === WebhookEnvelope.testType ? { id, type, timestamp } : { id, type, timestamp, data }
            ),
            cursor: page.cursor,
            hasMore: page.hasMore
          }
        })
      )
      .handle("sendTest", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* Caller.require("MANAGE")
          const outcome = yield* dispatch.sendTest(caller.platform, Option.fromNullable(payload.url))
          return {
            url: outcome.url,
            response_status: outcome.responseStatus,
            ...(outcome.responseBody === "" ? {} : { response_body: outcome.responseBody })
          }
        })
      )
  })
)
