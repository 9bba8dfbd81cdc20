import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import { Customer, CustomerRepo, Errors, Page, type Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { customersPlatformCustomerIdKey } from "./internal/constraints.js"
import { jsonText, timestampText } from "../internal/encoding.js"
import { isUniqueViolation } from "../internal/sqlState.js"

const encodeCustomer = Schema.encode(Customer.Customer)
const decodeRecords = Schema.decodeUnknown(Schema.Array(Schema.Struct({ record: Customer.Customer })))
const decodeStored = Schema.decodeUnknown(
  Schema.Array(
    Schema.Struct({
      record: Customer.Customer,
      identifier: Schema.OptionFromNullOr(Schema.String),
      version: Schema.Int
    })
  )
)
const decodeCount = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ count: Schema.NonNegativeInt })))


const initialVersion = 1

/**
 * `CustomerRepo` on the `customers` table, every statement scoped by `platform_id`.
 *
 * Guarantees: `(platform_id, platform_customer_id)` is a unique constraint, so of concurrent inserts with one
 * `platformCustomerId` exactly one succeeds and the others fail with `PlatformCustomerIdTaken` (never swallowed,
 * also inside a unit of work). A customer is inserted at version 1. `update` is a compare-and-set on `version` in
 * one `UPDATE` that stores `next` with `next.version`, so of concurrent updates from one version exactly one applies. `list` is a keyset page, newest first by `(createdAt, id)` with
 * ids compared in byte order (`COLLATE "C"`, the JavaScript order for ids); timestamps keep their milliseconds.
 * Records are decoded with the core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<Context.Tag.Service<CustomerRepo.CustomerRepo>, never, SqlClient.SqlClient> =
  Effect.map(SqlClient.SqlClient, (sql) => {
    const columns = (customer: Customer.Customer, identifier: Option.Option<string>) =>
      Effect.map(Effect.flatMap(encodeCustomer(customer), jsonText), (record) => ({
        platform_customer_id: customer.platformCustomerId,
        customer_type: customer.customerType,
        region: customer.region ?? null,
        email: customer.email ?? null,
        identifier: Option.getOrNull(identifier),
        record,
        created_at: timestampText(customer.createdAt),
        updated_at: timestampText(customer.updatedAt)
      }))

    const matching = (platformId: Platform.PlatformId, filter: CustomerRepo.CustomerFilter): Array<Fragment> => {
      const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
      const add = <A>(value: A | undefined, condition: (value: A) => Fragment) => {
        if (value !== undefined) conditions.push(condition(value))
      }
      add(filter.platformCustomerId, (value) => sql`platform_customer_id = ${value}`)
      add(filter.customerType, (value) => sql`customer_type = ${value}`)
      add(filter.region, (value) => sql`region = ${value}`)
      add(filter.email, (value) => sql`email = ${value}`)
      add(filter.createdAfter, (value) => sql`created_at >= ${timestampText(value)}::timestamptz`)
      add(filter.createdBefore, (value) => sql`created_at <= ${timestampText(value)}::timestamptz`)
      add(filter.updatedAfter, (value) => sql`updated_at >= ${timestampText(value)}::timestamptz`)
      add(filter.updatedBefore, (value) => sql`updated_at <= ${timestampText(value)}::timestamptz`)
      return conditions
    }

    return CustomerRepo.CustomerRepo.of({
      insert: (platformId, customer, identifier) =>
        Effect.gen(function* () {
          const values = yield* Effect.mapError(columns(customer, identifier), Errors.StoreFailure.wrap("customers.insert"))
          yield* sql`INSERT INTO customers ${sql.insert({
            id: customer.id,
            platform_id: platformId,
            version: initialVersion,
            ...values
          })}`.pipe(
            Effect.catchAll((error: SqlError) =>
              Effect.fail(
                isUniqueViolation(error, customersPlatformCustomerIdKey)
                  ? Errors.PlatformCustomerIdTaken.of(customer.platformCustomerId)
                  : Errors.StoreFailure.wrap("customers.insert")(error)
              )
            )
          )
        }),

      findById: (platformId, id) =>
        sql`SELECT record, identifier, version FROM customers WHERE platform_id = ${platformId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeStored),
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              customer: row.record,
              identifier: row.identifier,
              version: row.version
            }))
          ),
          Effect.mapError(Errors.StoreFailure.wrap("customers.findById"))
        ),

      update: (platformId, next, expectedVersion) =>
        Effect.gen(function* () {
          const values = yield* columns(next.customer, next.identifier)
          const updated = yield* sql`UPDATE customers SET ${sql.update({ ...values, version: next.version })}
            WHERE platform_id = ${platformId} AND id = ${next.customer.id} AND version = ${expectedVersion}
            RETURNING id`
          return updated.length > 0
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("customers.update"))),

      list: (platformId, filter, page) =>
        Effect.gen(function* () {
          const conditions = matching(platformId, filter)
          const beforeCursor = Option.toArray(
            Option.map(
              page.after,
              (cursor) =>
                sql`(created_at, id COLLATE "C") < (${timestampText(cursor.createdAt)}::timestamptz, ${cursor.id} COLLATE "C")`
            )
          )
          const [rows, count] = yield* Effect.all(
            [
              sql`SELECT record FROM customers WHERE ${sql.and([...conditions, ...beforeCursor])}
                ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeRecords)),
              sql`SELECT count(*)::int AS count FROM customers WHERE ${sql.and(conditions)}`.pipe(
                Effect.flatMap(decodeCount)
              )
            ],
            { concurrency: "unbounded" }
          )
          return Page.fromOverfetch(
            rows.map((row) => row.record),
            page,
            (customer) => ({ createdAt: customer.createdAt, id: customer.id }),
            count[0].count
          )
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("customers.list")))
    })
  })

/** Provides `CustomerRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<CustomerRepo.CustomerRepo, never, SqlClient.SqlClient> = Layer.effect(
  CustomerRepo.CustomerRepo,
  make
)
