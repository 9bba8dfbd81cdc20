import * as SqlClient from "@effect/sql/SqlClient"
import { DomainEvent, Errors, Outbox } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"
import { jsonText, timestampText } from "../internal/encoding.js"

const encodeData = Schema.encode(DomainEvent.DomainEvent.fields.data)
const decodeRows = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ ...DomainEvent.DomainEvent.fields, timestamp: Schema.DateTimeUtcFromDate }))
)

/**
 * `Outbox` on the `outbox` table. Appending inside `UnitOfWork.transaction` commits the event with the change it
 * reports. `pending` returns undelivered events in append order (a `bigserial` sequence, so the order in which
 * appends were made, which under concurrency can differ from the order in which they committed), at most `limit`.
 * An event id appended twice fails with `StoreFailure`.
 */
export const make: Effect.Effect<Context.Tag.Service<Outbox.Outbox>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    Outbox.Outbox.of({
      append: (event) =>
        Effect.gen(function* () {
          const data = yield* Effect.flatMap(encodeData(event.data), jsonText)
          yield* sql`INSERT INTO outbox ${sql.insert({
            id: event.id,
            platform_id: event.platformId,
            type: event.type,
            timestamp: timestampText(event.timestamp),
            data
          })}`
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("outbox.append"))),

      pending: (limit) =>
        sql`SELECT id, platform_id AS "platformId", type, timestamp, data FROM outbox
          WHERE delivered_at IS NULL ORDER BY seq LIMIT ${limit}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map((row) => new DomainEvent.DomainEvent(row))),
          Effect.mapError(Errors.StoreFailure.wrap("outbox.pending"))
        )
    })
)

/** Provides `Outbox` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<Outbox.Outbox, never, SqlClient.SqlClient> = Layer.effect(Outbox.Outbox, make)
