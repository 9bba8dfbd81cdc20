import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { DomainEvent, Errors, Outbox } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"

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
    const append = SqlSchema.void({
      Request: Schema.NonEmptyArray(DomainEvent.DomainEvent),
      execute: (events) =>
        Effect.flatMap(
          Effect.forEach(events, (event) =>
            Effect.map(jsonText(event.data), (data) => ({
              id: event.id,
              platform_id: event.platformId,
              type: event.type,
              timestamp: event.timestamp,
              data
            }))
          ),
          (rows) => sql`INSERT INTO outbox ${sql.insert(rows)}`
        )
    })

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

    return Outbox.Outbox.of({
      append: (event) => append([event]).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.append"))),
      appendAll: (events) =>
        Arr.isNonEmptyReadonlyArray(events)
          ? append(events).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.appendAll")))
          : Effect.void,
      pending: (limit) => pending(limit).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.pending"))),
      findById: (id) => findById(id).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.findById")))
    })
  }
)

/** Provides `Outbox` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<Outbox.Outbox, never, SqlClient.SqlClient> = Layer.effect(Outbox.Outbox, make)
