import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Errors, Page, Platform, WebhookDelivery, WebhookDeliveryRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const Delivery = WebhookDelivery.WebhookDelivery

const Filter = Schema.Struct({
  status: Schema.optional(WebhookDelivery.DeliveryStatus),
  eventType: Schema.optional(Schema.String)
})

const Listing = Schema.Struct({ platformId: Platform.PlatformId, filter: Filter, page: PageRequest })

/**
 * `WebhookDeliveryRepo` on `webhook_deliveries`. One row per (event, URL) by a unique index: `open` inserts with
 * `ON CONFLICT DO NOTHING` and reads the row that won. `update` is one guarded `UPDATE … WHERE status = $from AND
 * attempts = $n`. `list` is a keyset page newest first by `(created_at, id)`, ids in byte order.
 */
export const make: Effect.Effect<
  Context.Tag.Service<WebhookDeliveryRepo.WebhookDeliveryRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.findOne({
    Request: Delivery,
    Result: Returned,
    execute: (delivery) =>
      Effect.flatMap(
        jsonText(delivery),
        (json) =>
          sql`INSERT INTO webhook_deliveries ${sql.insert({
            id: delivery.id,
            platform_id: delivery.platformId,
            event_id: delivery.eventId,
            url: delivery.url,
            event_type: delivery.eventType,
            status: delivery.status,
            attempts: delivery.attempts,
            record: json,
            created_at: delivery.createdAt
          })} ON CONFLICT (event_id, md5(url)) DO NOTHING RETURNING id`
      )
  })

  const findByPair = SqlSchema.findOne({
    Request: Schema.Struct({ eventId: Schema.String, url: Schema.String }),
    Result: record(Delivery),
    execute: ({ eventId, url }) =>
      sql`SELECT record FROM webhook_deliveries WHERE event_id = ${eventId} AND md5(url) = md5(${url})`
  })

  const update = SqlSchema.findOne({
    Request: Schema.Struct({ next: Delivery, status: WebhookDelivery.DeliveryStatus, attempts: Schema.Int }),
    Result: Returned,
    execute: ({ attempts, next, status }) =>
      Effect.flatMap(
        jsonText(next),
        (json) => sql`UPDATE webhook_deliveries
            SET status = ${next.status}, attempts = ${next.attempts}, record = ${json}::jsonb
            WHERE id = ${next.id} AND platform_id = ${next.platformId} AND status = ${status} AND attempts = ${attempts}
            RETURNING id`
      )
  })

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String }),
    Result: record(Delivery),
    execute: ({ id, platformId }) =>
      sql`SELECT record FROM webhook_deliveries WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const matching = (request: typeof Listing.Encoded) => [
    sql`platform_id = ${request.platformId}`,
    ...(request.filter.status === undefined ? [] : [sql`status = ${request.filter.status}`]),
    ...(request.filter.eventType === undefined ? [] : [sql`event_type = ${request.filter.eventType}`])
  ]

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(Delivery),
    execute: (request) => sql`SELECT record FROM webhook_deliveries
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => sql`SELECT count(*)::int AS count FROM webhook_deliveries WHERE ${sql.and(matching(request))}`
  })

  const wrap = Errors.StoreFailure.wrap
  return WebhookDeliveryRepo.WebhookDeliveryRepo.of({
    open: (delivery) =>
      Effect.gen(function* () {
        yield* insert(delivery)
        // Read in a statement of its own: a row a concurrent insert committed after this one's snapshot began is
        // visible here.
        const stored = yield* findByPair({ eventId: delivery.eventId, url: delivery.url })
        return Option.getOrElse(stored, () => delivery)
      }).pipe(Effect.mapError(wrap("webhook_deliveries.open"))),
    update: (next, expected) =>
      update({ next, ...expected }).pipe(Effect.map(Option.isSome), Effect.mapError(wrap("webhook_deliveries.update"))),
    findById: (platformId, id) =>
      storable(id)
        ? findById({ platformId, id }).pipe(Effect.mapError(wrap("webhook_deliveries.findById")))
        : Effect.succeedNone,
    list: (platformId, filter, page) => {
      const request = {
        platformId,
        filter: {
          ...(filter.status === undefined ? {} : { status: filter.status }),
          ...(filter.eventType === undefined ? {} : { eventType: filter.eventType })
        },
        page
      }
      if (filter.eventType !== undefined && !storable(filter.eventType)) {
        return Effect.succeed(Page.fromOverfetch([], page, WebhookDelivery.keyOf, 0))
      }
      return Effect.all([rows(request), count(request)], { concurrency: "unbounded" }).pipe(
        Effect.map(([found, totalCount]) => Page.fromOverfetch(found, page, WebhookDelivery.keyOf, totalCount)),
        Effect.mapError(wrap("webhook_deliveries.list"))
      )
    }
  })
})

/** Provides `WebhookDeliveryRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<WebhookDeliveryRepo.WebhookDeliveryRepo, never, SqlClient.SqlClient> = Layer.effect(
  WebhookDeliveryRepo.WebhookDeliveryRepo,
  make
)
