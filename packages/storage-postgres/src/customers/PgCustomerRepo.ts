import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Customer, CustomerRepo, Errors, Page, Platform } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"
import { isUniqueViolation, uniqueViolationValue } from "../internal/sqlState.js"
import { storable, takenAmong } from "../internal/text.js"
import { customersPlatformCustomerIdKey, customersUmaAddressKey } from "./internal/constraints.js"
import * as WriteBehind from "../internal/writeBehind.js"

const initialVersion = 1

const Identifier = Schema.OptionFromNullOr(Schema.String)

/** A `CustomerRepo.StoredCustomer`: the customer, its write-only identifier (null when absent) and version. */
const Stored = Schema.Struct({ customer: Customer.Customer, identifier: Identifier, version: Schema.Int })

/** The row of `SELECT record, identifier, version`: the stored customer, its record decoded by the core schema. */
const StoredRow = Schema.Struct({ record: Customer.Customer, identifier: Identifier, version: Schema.Int }).pipe(
  Schema.rename({ record: "customer" })
)

const Filter = Schema.Struct({
  platformCustomerId: Schema.optional(Schema.String),
  customerType: Schema.optional(Schema.String),
  region: Schema.optional(Schema.String),
  email: Schema.optional(Schema.String),
  umaAddress: Schema.optional(Schema.String),
  currency: Schema.optional(Schema.String),
  createdAfter: Schema.optional(Schema.DateTimeUtc),
  createdBefore: Schema.optional(Schema.DateTimeUtc),
  updatedAfter: Schema.optional(Schema.DateTimeUtc),
  updatedBefore: Schema.optional(Schema.DateTimeUtc),
  isIncludingDeleted: Schema.optional(Schema.Boolean)
})

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: Customer.CustomerId })
const Listing = Schema.Struct({ platformId: Platform.PlatformId, filter: Filter, page: PageRequest })

const keyOf = (customer: Customer.Customer): Page.Cursor => ({ createdAt: customer.createdAt, id: customer.id })

/** The most customers one `insertMany` statement carries (12 parameters each, far below PostgreSQL's 65,535). */
const insertManyChunk = 1_000

/**
 * `CustomerRepo` on the `customers` table, every statement scoped by `platform_id`.
 *
 * Guarantees: `(platform_id, platform_customer_id)` is unique among live customers (a partial unique index,
 * migration `0027_customer_lifecycle`), so of concurrent inserts with one `platformCustomerId` exactly one succeeds
 * and the others fail with `PlatformCustomerIdTaken` (never swallowed, also inside a unit of work); the same for the
 * UMA address (`UmaAddressTaken`, migration `0041_customer_uma_address_unique`). A customer is inserted at version 1.
 * `update` is a compare-and-set on `version` in one `UPDATE` that stores `next` with `next.version`, so of concurrent updates from one version exactly one
 * applies. `list` is a keyset page, newest first by `(createdAt, id)` with ids compared in byte order
 * (`COLLATE "C"`, the JavaScript order for ids); timestamps keep their milliseconds. Its `totalCount` with no
 * filter but `customerType` is read from `customer_counts`, which `insert` updates in its own statement, so it
 * costs the same at any number of customers; an `update` that deletes a customer takes it out of them. Records are decoded with the
 * core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<
  Context.Tag.Service<CustomerRepo.CustomerRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // The columns of a stored customer, from its encoded form.
  const columns = (stored: typeof Stored.Encoded) =>
    Effect.map(jsonText(stored.customer), (json) => ({
      platform_customer_id: stored.customer.platformCustomerId,
      customer_type: stored.customer.customerType,
      region: stored.customer.region ?? null,
      email: stored.customer.email ?? null,
      is_deleted: stored.customer.isDeleted,
      identifier: stored.identifier,
      record: json,
      version: stored.version,
      created_at: stored.customer.createdAt,
      updated_at: stored.customer.updatedAt
    }))

  const matching = ({ platformId, filter }: typeof Listing.Encoded): Array<Fragment> => {
    const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
    if (filter.isIncludingDeleted !== true) conditions.push(sql`NOT is_deleted`)
    const add = <A>(value: A | undefined, condition: (value: A) => Fragment) => {
      if (value !== undefined) conditions.push(condition(value))
    }
    add(filter.platformCustomerId, (value) => sql`platform_customer_id = ${value}`)
    add(filter.customerType, (value) => sql`customer_type = ${value}`)
    add(filter.region, (value) => sql`region = ${value}`)
    add(filter.email, (value) => sql`email = ${value}`)
    // Through `customers_uma_address_idx` (migration 0021), which holds deleted customers too.
    add(filter.umaAddress, (value) => sql`record->>'umaAddress' = ${value}`)
    // Read from each record of the platform the other conditions leave (no index holds the list).
    add(filter.currency, (value) => sql`record->'currencies' @> jsonb_build_array(${value}::text)`)
    add(filter.createdAfter, (value) => sql`created_at >= ${value}::timestamptz`)
    add(filter.createdBefore, (value) => sql`created_at <= ${value}::timestamptz`)
    add(filter.updatedAfter, (value) => sql`updated_at >= ${value}::timestamptz`)
    add(filter.updatedBefore, (value) => sql`updated_at <= ${value}::timestamptz`)
    return conditions
  }

  // The customers and their counters in one statement (each counter raised by the number of its rows, grouped, as
  // one INSERT … ON CONFLICT may change a row only once; in slot order, so concurrent statements take the counter
  // rows in one order), so they commit or roll back together. Sent with the unit of work's other writes
  // (`WriteBehind`), the customers of every insert of the unit in one INSERT: a counter row is locked from then to
  // COMMIT only.
  const steps =
    (rows: ReadonlyArray<Record<string, unknown>>) =>
    (name: (step: string) => string): WriteBehind.Steps => {
      const inserted = name("inserted")
      return [
        [
          inserted,
          sql`INSERT INTO customers ${sql.insert(rows)}
            RETURNING platform_id, customer_type, payrail_customer_count_slot(id) AS slot, is_deleted`
        ],
        [
          name("counted"),
          sql`INSERT INTO customer_counts AS c (platform_id, customer_type, slot, n)
            SELECT platform_id, customer_type, slot, count(*) FROM ${sql(inserted)} WHERE NOT is_deleted
            GROUP BY platform_id, customer_type, slot ORDER BY customer_type, slot
            ON CONFLICT (platform_id, customer_type, slot) DO UPDATE SET n = c.n + EXCLUDED.n`
        ]
      ]
    }
  const insertRows = (operation: string) =>
    WriteBehind.encodedRows(sql, {
      Request: Schema.Struct({ platformId: Platform.PlatformId, stored: Schema.NonEmptyArray(Stored) }),
      operation,
      key: "customers",
      rows: ({ platformId, stored }) =>
        Effect.forEach(stored, (one) =>
          Effect.map(columns(one), (values) => ({ id: one.customer.id, platform_id: platformId, ...values }))
        ),
      steps,
      recognize: ({ stored }, error) => {
        if (isUniqueViolation(error, customersPlatformCustomerIdKey)) {
          return Option.some(
            Errors.PlatformCustomerIdTaken.of(uniqueViolationValue(error) ?? stored[0].customer.platformCustomerId)
          )
        }
        if (isUniqueViolation(error, customersUmaAddressKey)) {
          return Option.some(
            Errors.UmaAddressTaken.of(uniqueViolationValue(error) ?? stored[0].customer.umaAddress ?? "")
          )
        }
        return Option.none<Errors.PlatformCustomerIdTaken | Errors.UmaAddressTaken>()
      }
    })
  const insert = insertRows("customers.insert")
  const insertMany = insertRows("customers.insertMany")

  // Through the partial unique index on (platform_id, platform_customer_id) of live customers.
  const takenPlatformCustomerIds = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, values: Schema.NonEmptyArray(Schema.String) }),
    Result: Schema.Struct({ value: Schema.String }),
    execute: ({ platformId, values }) =>
      sql`SELECT DISTINCT platform_customer_id AS value FROM customers
          WHERE platform_id = ${platformId} AND platform_customer_id IN ${sql.in(values)} AND NOT is_deleted`
  })

  // Through the partial unique index on (platform_id, UMA address) of live customers, as `findByUmaAddress`.
  const takenUmaAddresses = SqlSchema.findAll({
    Request: Schema.Struct({ platformId: Platform.PlatformId, values: Schema.NonEmptyArray(Schema.String) }),
    Result: Schema.Struct({ value: Schema.String }),
    execute: ({ platformId, values }) =>
      sql`SELECT record->>'umaAddress' AS value FROM customers
          WHERE platform_id = ${platformId} AND record->>'umaAddress' IN ${sql.in(values)} AND NOT is_deleted`
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: StoredRow,
    execute: ({ platformId, id }) =>
      sql`SELECT record, identifier, version FROM customers WHERE platform_id = ${platformId} AND id = ${id}`
  })

  // One entry of the partial unique index of migration `0041_customer_uma_address_unique`.
  const findByUmaAddress = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, umaAddress: Schema.String }),
    Result: StoredRow,
    execute: ({ platformId, umaAddress }) =>
      sql`SELECT record, identifier, version FROM customers
          WHERE platform_id = ${platformId} AND record->>'umaAddress' = ${umaAddress} AND NOT is_deleted`
  })

  // Deleting a customer takes it out of the live counters in the same statement. Every part of the statement sees
  // one snapshot, so `prior` is the row the guarded update replaces (same version, same content).
  const update = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, next: Stored, expectedVersion: Schema.Int }),
    Result: Returned,
    execute: ({ platformId, next, expectedVersion }) =>
      Effect.flatMap(
        columns(next),
        (values) => sql`WITH prior AS (
            SELECT is_deleted FROM customers
            WHERE platform_id = ${platformId} AND id = ${next.customer.id} AND version = ${expectedVersion}
          ), updated AS (
            UPDATE customers SET ${sql.update(values)}
            WHERE platform_id = ${platformId} AND id = ${next.customer.id} AND version = ${expectedVersion}
            RETURNING id, platform_id, customer_type, payrail_customer_count_slot(id) AS slot, is_deleted
          ), uncounted AS (
            UPDATE customer_counts c SET n = c.n - 1 FROM updated, prior
            WHERE updated.is_deleted AND NOT prior.is_deleted AND c.platform_id = updated.platform_id
              AND c.customer_type = updated.customer_type AND c.slot = updated.slot
          )
          SELECT id FROM updated`
      )
  })

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(Customer.Customer),
    execute: (request) => sql`SELECT record FROM customers
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  // With no filter but the customer type, the counters of live customers answer (at most 34 rows, whatever the
  // platform's size); any other filter, or including deleted customers, counts the matching customers.
  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => {
      const { customerType, isIncludingDeleted, ...others } = request.filter
      if (isIncludingDeleted !== true && Object.values(others).every((value) => value === undefined)) {
        const type = customerType === undefined ? [] : [sql`customer_type = ${customerType}`]
        return sql`SELECT coalesce(sum(n), 0)::int AS count FROM customer_counts
          WHERE ${sql.and([sql`platform_id = ${request.platformId}`, ...type])}`
      }
      return sql`SELECT count(*)::int AS count FROM customers WHERE ${sql.and(matching(request))}`
    }
  })

  return CustomerRepo.CustomerRepo.of({
    insert: (platformId, customer, identifier) =>
      insert({ platformId, stored: [{ customer, identifier, version: initialVersion }] }),

    insertMany: (platformId, customers) =>
      Effect.forEach(
        Arr.chunksOf(customers, insertManyChunk),
        (chunk) =>
          Arr.isNonEmptyReadonlyArray(chunk)
            ? insertMany({
                platformId,
                stored: Arr.map(chunk, ({ customer, identifier }) => ({
                  customer,
                  identifier,
                  version: initialVersion
                }))
              })
            : Effect.void,
        { discard: true }
      ),

    takenPlatformCustomerIds: (platformId, platformCustomerIds) =>
      takenAmong(platformCustomerIds, (values) => takenPlatformCustomerIds({ platformId, values })).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("customers.takenPlatformCustomerIds"))
      ),

    takenUmaAddresses: (platformId, umaAddresses) =>
      takenAmong(umaAddresses, (values) => takenUmaAddresses({ platformId, values })).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("customers.takenUmaAddresses"))
      ),

    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("customers.findById"))),

    findByUmaAddress: (platformId, umaAddress) =>
      storable(umaAddress)
        ? findByUmaAddress({ platformId, umaAddress }).pipe(
            Effect.mapError(Errors.StoreFailure.wrap("customers.findByUmaAddress"))
          )
        : Effect.succeed(Option.none()),

    update: (platformId, next, expectedVersion) =>
      update({ platformId, next, expectedVersion }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("customers.update"))
      ),

    list: (platformId, filter, page) =>
      Effect.all([rows({ platformId, filter, page }), count({ platformId, filter, page })], {
        concurrency: "unbounded"
      }).pipe(
        Effect.map(([customers, totalCount]) => Page.fromOverfetch(customers, page, keyOf, totalCount)),
        Effect.mapError(Errors.StoreFailure.wrap("customers.list"))
      )
  })
})

/** Provides `CustomerRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<CustomerRepo.CustomerRepo, never, SqlClient.SqlClient> = Layer.effect(
  CustomerRepo.CustomerRepo,
  make
)
