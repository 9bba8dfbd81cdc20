import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { ContactCode, ContactCodeRepo, Customer, Errors, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record, Returned } from "../internal/rows.js"

const ByContact = Schema.Struct({
  platformId: Platform.PlatformId,
  customerId: Customer.CustomerId,
  channel: ContactCode.ContactChannel
})

const ById = Schema.Struct({ ...ByContact.fields, id: Schema.String })

/**
 * `ContactCodeRepo` on the `contact_codes` table (migration `0027_customer_lifecycle`), one row per (platform,
 * customer, channel), every statement scoped by `platform_id`. Records are decoded with the core schema on every
 * read.
 *
 * Guarantees:
 * - `put` is one `INSERT … ON CONFLICT DO UPDATE`: the new code replaces the old.
 * - `take` is one `DELETE … WHERE id = id`: of concurrent takes exactly one gets `true`, and a take of a replaced
 *   code gets `false`.
 * - `recordFailure` is one guarded `UPDATE` incrementing `failedAttempts` in the record, returning the new count:
 *   concurrent failures are all counted.
 */
export const make: Effect.Effect<
  Context.Tag.Service<ContactCodeRepo.ContactCodeRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const put = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, code: ContactCode.ContactCode }),
    execute: ({ platformId, code }) =>
      Effect.flatMap(
        jsonText(code),
        (json) =>
          sql`INSERT INTO contact_codes ${sql.insert({
            platform_id: platformId,
            customer_id: code.customerId,
            channel: code.channel,
            id: code.id,
            record: json
          })} ON CONFLICT (platform_id, customer_id, channel)
            DO UPDATE SET id = excluded.id, record = excluded.record`
      )
  })

  const find = SqlSchema.findOne({
    Request: ByContact,
    Result: record(ContactCode.ContactCode),
    execute: ({ platformId, customerId, channel }) =>
      sql`SELECT record FROM contact_codes
        WHERE platform_id = ${platformId} AND customer_id = ${customerId} AND channel = ${channel}`
  })

  const take = SqlSchema.findOne({
    Request: ById,
    Result: Returned,
    execute: ({ platformId, customerId, channel, id }) =>
      sql`DELETE FROM contact_codes
        WHERE platform_id = ${platformId} AND customer_id = ${customerId} AND channel = ${channel} AND id = ${id}
        RETURNING id`
  })

  const recordFailure = SqlSchema.findOne({
    Request: ById,
    Result: Count,
    execute: ({ platformId, customerId, channel, id }) =>
      sql`UPDATE contact_codes
        SET record = jsonb_set(record, '{failedAttempts}', to_jsonb((record->>'failedAttempts')::int + 1))
        WHERE platform_id = ${platformId} AND customer_id = ${customerId} AND channel = ${channel} AND id = ${id}
        RETURNING (record->>'failedAttempts')::int AS count`
  })

  return ContactCodeRepo.ContactCodeRepo.of({
    put: (platformId, code) =>
      put({ platformId, code }).pipe(Effect.mapError(Errors.StoreFailure.wrap("contactCodes.put"))),
    find: (platformId, customerId, channel) =>
      find({ platformId, customerId, channel }).pipe(Effect.mapError(Errors.StoreFailure.wrap("contactCodes.find"))),
    take: (platformId, customerId, channel, id) =>
      take({ platformId, customerId, channel, id }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("contactCodes.take"))
      ),
    recordFailure: (platformId, customerId, channel, id) =>
      recordFailure({ platformId, customerId, channel, id }).pipe(
        Effect.map(Option.getOrElse(() => 0)),
        Effect.mapError(Errors.StoreFailure.wrap("contactCodes.recordFailure"))
      )
  })
})

/** Provides `ContactCodeRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<ContactCodeRepo.ContactCodeRepo, never, SqlClient.SqlClient> = Layer.effect(
  ContactCodeRepo.ContactCodeRepo,
  make
)
