import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { DomainEvent, Errors, Outbox, type OutboxPosition, type PlatformId } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import * as WriteBehind from "../internal/writeBehind.js"

const { fields } = DomainEvent.DomainEvent

/** A row of `outbox` as both drivers read it (`timestamp` as a `Date`), decoded to the `DomainEvent`. */
const EventRow = Schema.transform(
  Schema.Struct({
    id: fields.id,
    platform_id: fields.platformId,
    type: fields.type,
    timestamp: Schema.DateTimeUtcFromDate,
    data: fields.data
  }).pipe(Schema.rename({ platform_id: "platformId" })),
  Schema.typeSchema(DomainEvent.DomainEvent),
  {
    strict: true,
    decode: (row) => new DomainEvent.DomainEvent(row),
    encode: (event) => ({ ...event })
  }
)

/** A feed position as read back: both parts as text (a `bigint` may pass 2^53). */
const PositionRow = Schema.transform(
  Schema.Struct({ xact: Schema.BigInt, seq: Schema.BigInt }),
  Schema.Struct({ commit: Schema.BigIntFromSelf, seq: Schema.BigIntFromSelf }),
  {
    strict: true,
    decode: ({ seq, xact }) => ({ commit: xact, seq }),
    encode: ({ commit, seq }) => ({ xact: commit, seq })
  }
)

/** A row of the event feed: the event and its position. */
const FeedRow = Schema.transform(
  Schema.Struct({
    id: fields.id,
    platform_id: fields.platformId,
    type: fields.type,
    timestamp: Schema.DateTimeUtcFromDate,
    data: fields.data,
    xact: Schema.BigInt,
    seq: Schema.BigInt
  }),
  Schema.Struct({
    event: Schema.typeSchema(DomainEvent.DomainEvent),
    position: Schema.Struct({ commit: Schema.BigIntFromSelf, seq: Schema.BigIntFromSelf })
  }),
  {
    strict: true,
    decode: (row) => ({
      event: new DomainEvent.DomainEvent({
        id: row.id,
        platformId: row.platform_id,
        type: row.type,
        timestamp: row.timestamp,
        data: row.data
      }),
      position: { commit: row.xact, seq: row.seq }
    }),
    encode: ({ event, position }) => ({
      id: event.id,
      platform_id: event.platformId,
      type: event.type,
      timestamp: event.timestamp,
      data: event.data,
      xact: position.commit,
      seq: position.seq
    })
  }
)

/**
 * `Outbox` on the `outbox` table. Appending inside `UnitOfWork.transaction` commits the event with the change it
 * reports. `pending` returns undelivered events in append order (a `bigserial` sequence, so the order in which
 * appends were made, which under concurrency can differ from the order in which they committed), at most `limit`.
 * An event id appended twice fails with `StoreFailure`. `appendAll` is one multi-row `INSERT`, all or nothing.
 */
export const make: Effect.Effect<Context.Tag.Service<Outbox.Outbox>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    // One multi-row INSERT; its rows take their `seq` in the order listed.
    // Sent with the unit of work's other writes (`WriteBehind`), the rows of every append of the unit in one INSERT
    // so that they take their `seq` in the order appended.
    const append = (operation: string) =>
      WriteBehind.encodedRows(sql, {
        Request: Schema.NonEmptyArray(DomainEvent.DomainEvent),
        operation,
        key: "outbox",
        rows: (events) =>
          Effect.forEach(events, (event) =>
            Effect.map(jsonText(event.data), (data) => ({
              id: event.id,
              platform_id: event.platformId,
              type: event.type,
              timestamp: event.timestamp,
              data
            }))
          ),
        steps: (rows) => WriteBehind.single("outbox", sql`INSERT INTO outbox ${sql.insert(rows)}`)
      })
    const appendOne = append("outbox.append")
    const appendMany = append("outbox.appendAll")

    const pending = SqlSchema.findAll({
      Request: Schema.Int,
      Result: EventRow,
      execute: (limit) => sql`SELECT id, platform_id, type, timestamp, data FROM outbox
        WHERE delivered_at IS NULL ORDER BY seq LIMIT ${limit}`
    })

    const findById = SqlSchema.findOne({
      Request: DomainEvent.EventId,
      Result: EventRow,
      execute: (id) => sql`SELECT id, platform_id, type, timestamp, data FROM outbox WHERE id = ${id}`
    })

    // Only the events of transactions older than every running one (migration 0037): these have ended, so nothing
    // that sorts before a returned event can still appear.
    const settled = sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`

    const feedAfter = SqlSchema.findAll({
      Request: Schema.Struct({
        platformId: Schema.String,
        commit: Schema.BigInt,
        seq: Schema.BigInt,
        limit: Schema.Int
      }),
      Result: FeedRow,
      execute: ({ commit, limit, platformId, seq }) => sql`SELECT id, platform_id, type, timestamp, data,
          xact::text AS xact, seq::text AS seq FROM outbox
        WHERE platform_id = ${platformId} AND (xact, seq) > (${commit}::bigint, ${seq}::bigint) AND xact < ${settled}
        ORDER BY xact, seq LIMIT ${limit}`
    })

    const latest = SqlSchema.findAll({
      Request: Schema.String,
      Result: PositionRow,
      execute: (platformId) => sql`SELECT xact::text AS xact, seq::text AS seq FROM outbox
        WHERE platform_id = ${platformId} AND xact < ${settled} ORDER BY xact DESC, seq DESC LIMIT 1`
    })

    const feed = (
      platformId: PlatformId.PlatformId,
      after: Option.Option<OutboxPosition.OutboxPosition>,
      limit: number
    ): Effect.Effect<Outbox.FeedRead, Errors.StoreFailure> =>
      Option.match(after, {
        onNone: () =>
          Effect.map(latest(platformId), (rows) => ({
            events: [],
            position: rows[0] ?? { commit: 0n, seq: 0n }
          })),
        onSome: (from) =>
          Effect.map(feedAfter({ platformId, commit: from.commit, seq: from.seq, limit }), (rows) => ({
            events: rows,
            position: rows.at(-1)?.position ?? from
          }))
      }).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.feed")))

    return Outbox.Outbox.of({
      feed,
      append: (event) => appendOne([event]),
      appendAll: (events) => (Arr.isNonEmptyReadonlyArray(events) ? appendMany(events) : Effect.void),
      pending: (limit) => pending(limit).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.pending"))),
      findById: (id) => findById(id).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.findById")))
    })
  }
)

/** Provides `Outbox` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<Outbox.Outbox, never, SqlClient.SqlClient> = Layer.effect(Outbox.Outbox, make)
