import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { DomainEvent, Errors, Page, Platform, Timestamp, WebhookDelivery, WebhookDeliveryRepo } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { decodeRows } from "../internal/rowDecoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"
import { fastSourceRow, SourceRow } from "./internal/attemptSourceRow.js"

const Delivery = WebhookDelivery.WebhookDelivery

const Filter = Schema.Struct({
  status: Schema.optional(WebhookDelivery.DeliveryStatus),
  eventType: Schema.optional(Schema.String)
})

// The row is decoded already: the event's constructor need not validate it (and its data) again.
const toSource = (row: typeof SourceRow.Type): WebhookDeliveryRepo.AttemptSource => ({
  event: new DomainEvent.DomainEvent(
    { id: row.id, platformId: row.platform_id, type: row.type, timestamp: row.timestamp, data: row.data },
    { disableValidation: true }
  ),
  endpoint:
    row.url === null || row.environment === null
      ? Option.none()
      : Option.some({ url: row.url, environment: row.environment }),
  secrets: row.secrets.map((secret) => Redacted.make(secret)),
  delivery: Option.fromNullable(row.delivery)
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

  // The requests travel as one JSON parameter (both drivers bind text the same way); `ord` puts the answers back
  // in the order asked. The endpoint is the platform's as stored now; the secrets are those active at each
  // request's `now`. Each lookup is a LATERAL subquery with `LIMIT 1` (each finds one row at most), which the
  // planner cannot flatten into a join: it stays an index probe per request whatever the planner guesses of the
  // JSON's row count (as a join it chose a hash join over the whole outbox).
  // A batch's rows are decoded by `fastSourceRow` (the schema backs it, and decodes a row with a stored delivery).
  const sourceRows = decodeRows(SourceRow, fastSourceRow)
  const sources = (requests: string) =>
    Effect.flatMap(
      sql`SELECT r.ord, e.id, e.platform_id, e.type, e.timestamp, e.data, p.url, p.environment,
        ARRAY(SELECT s.secret FROM webhook_secrets s
              WHERE s.platform_id = e.platform_id AND (s.expires_at IS NULL OR s.expires_at > r.now)
              ORDER BY s.seq DESC) AS secrets,
        d.record AS delivery
      FROM jsonb_to_recordset(${requests}::jsonb) AS r(ord int, event_id text, now timestamptz)
      CROSS JOIN LATERAL (
        SELECT id, platform_id, type, timestamp, data FROM outbox WHERE outbox.id = r.event_id LIMIT 1
      ) AS e
      LEFT JOIN LATERAL (
        SELECT record->'config'->>'webhookEndpoint' AS url, record->>'environment' AS environment
          FROM platforms WHERE platforms.id = e.platform_id LIMIT 1
      ) AS p ON true
      LEFT JOIN LATERAL (
        SELECT record FROM webhook_deliveries
         WHERE webhook_deliveries.event_id = e.id AND md5(webhook_deliveries.url) = md5(p.url) LIMIT 1
      ) AS d ON true`,
      sourceRows
    )

  // New deliveries are inserted unless their pair has one (a concurrent first attempt won); the others are
  // compare-and-set updates. The positions (`ord`) of the entries written say which applied: of two entries that
  // update one delivery from one state, only the one the UPDATE used is answered.
  const recordAll = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ ord: Schema.Int }),
    execute: (attempts) => sql`WITH input AS (
          SELECT * FROM jsonb_to_recordset(${attempts}::jsonb) AS i(ord int, id text, platform_id text, event_id text,
            url text, event_type text, status text, attempts int, record jsonb, created_at timestamptz,
            expected_status text, expected_attempts int)
        ), inserted AS (
          INSERT INTO webhook_deliveries (id, platform_id, event_id, url, event_type, status, attempts, record,
            created_at)
          SELECT id, platform_id, event_id, url, event_type, status, attempts, record, created_at
            FROM input WHERE expected_status IS NULL
          ON CONFLICT (event_id, md5(url)) DO NOTHING
          RETURNING id
        ), updated AS (
          UPDATE webhook_deliveries AS d SET status = i.status, attempts = i.attempts, record = i.record
            FROM input AS i
           WHERE i.expected_status IS NOT NULL AND d.id = i.id AND d.platform_id = i.platform_id
             AND d.status = i.expected_status AND d.attempts = i.expected_attempts
          RETURNING i.ord
        )
        SELECT i.ord FROM inserted JOIN input AS i ON i.id = inserted.id AND i.expected_status IS NULL
        UNION ALL SELECT ord FROM updated`
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
    sources: (requests) =>
      Effect.gen(function* () {
        if (!Arr.isNonEmptyReadonlyArray(requests)) return []
        // A batch's requests share their `now`: it is formatted once.
        const iso = Timestamp.isoFormatter()
        const json = yield* jsonText(
          requests.map((request, ord) => ({ ord, event_id: request.eventId, now: iso(request.now) }))
        )
        // An id that cannot be stored (a NUL byte) names no event; it is left out rather than sent.
        const rows = requests.every((request) => storable(request.eventId)) ? yield* sources(json) : []
        const byOrd = new Map(rows.map((row) => [row.ord, row]))
        return requests.map((_, ord) => Option.map(Option.fromNullable(byOrd.get(ord)), toSource))
      }).pipe(Effect.mapError(wrap("webhook_deliveries.sources"))),
    recordAll: (attempts) =>
      Effect.gen(function* () {
        if (!Arr.isNonEmptyReadonlyArray(attempts)) return []
        // Encoded without the schema's checks (`WebhookDelivery.encode`): each is an attempt's outcome. The batch's
        // times are mostly its one `now`: each distinct one is formatted once.
        const iso = Timestamp.isoFormatter()
        const rows = attempts.map(({ expected, next }, ord) => {
          const record = WebhookDelivery.encode(next, iso)
          return {
            ord,
            id: record.id,
            platform_id: record.platformId,
            event_id: record.eventId,
            url: record.url,
            event_type: record.eventType,
            status: record.status,
            attempts: record.attempts,
            record,
            created_at: record.createdAt,
            expected_status: Option.match(expected, { onNone: () => null, onSome: (guard) => guard.status }),
            expected_attempts: Option.match(expected, { onNone: () => null, onSome: (guard) => guard.attempts })
          }
        })
        const written = new Set((yield* recordAll(yield* jsonText(rows))).map(({ ord }) => ord))
        return attempts.map((_, ord) => written.has(ord))
      }).pipe(Effect.mapError(wrap("webhook_deliveries.recordAll"))),
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
