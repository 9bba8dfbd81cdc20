import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Errors, InternalAccount, InternalAccountRepo, Page, Platform } from "@payrail/core"
import { Array as Arr, type Context, Effect, Layer, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import * as WriteBehind from "../internal/writeBehind.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record } from "../internal/rows.js"

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    owner: Schema.Literal("customers", "platform"),
    customerId: Schema.optional(Schema.String),
    type: Schema.optional(Schema.String),
    currency: Schema.optional(Schema.String)
  }),
  page: PageRequest
})

const keyOf = (account: InternalAccount.InternalAccount): Page.Cursor => ({
  createdAt: account.createdAt,
  id: account.id
})

/**
 * `InternalAccountRepo` on the `internal_accounts` table, every statement scoped by `platform_id`: another
 * platform's account is never found nor listed. An id is inserted once (a second insert fails as `StoreFailure`);
 * `insertAll` is one multi-row `INSERT`, all or nothing.
 * `list` is a keyset page, newest first by `(createdAt, id)` with ids in byte order (`COLLATE "C"`, the JavaScript
 * order), `owner: "customers"` selecting accounts with a `customerId` and `"platform"` those without; its
 * `totalCount` counts the matching accounts (a handful per customer, so counting them is cheap). Records are
 * decoded with the core schema on every read; a row that does not decode fails as `StoreFailure`.
 * `setPrivateEnabled` is one guarded `UPDATE … RETURNING` of the record (`jsonb` merge), only on an embedded wallet.
 */
export const make: Effect.Effect<
  Context.Tag.Service<InternalAccountRepo.InternalAccountRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const matching = ({ platformId, filter }: typeof Listing.Encoded) => {
    const conditions: Array<Fragment> = [
      sql`platform_id = ${platformId}`,
      filter.owner === "platform" ? sql`customer_id IS NULL` : sql`customer_id IS NOT NULL`
    ]
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.type !== undefined) conditions.push(sql`type = ${filter.type}`)
    if (filter.currency !== undefined) conditions.push(sql`currency = ${filter.currency}`)
    return conditions
  }

  // One multi-row INSERT for any number of accounts, sent with the unit of work's other writes (`WriteBehind`).
  const insert = (operation: string) =>
    WriteBehind.encoded(sql, {
      Request: Schema.Struct({
        platformId: Platform.PlatformId,
        accounts: Schema.NonEmptyArray(InternalAccount.InternalAccount)
      }),
      operation,
      steps: ({ platformId, accounts }) =>
        Effect.map(
          Effect.forEach(accounts, (account) =>
            Effect.map(jsonText(account), (json) => ({
              id: account.id,
              platform_id: platformId,
              customer_id: account.customerId ?? null,
              type: account.type,
              currency: account.currency,
              record: json,
              created_at: account.createdAt
            }))
          ),
          (rows) => WriteBehind.single("accounts", sql`INSERT INTO internal_accounts ${sql.insert(rows)}`)
        )
    })
  const insertOne = insert("internalAccounts.insert")
  const insertMany = insert("internalAccounts.insertAll")

  const findById = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, id: InternalAccount.InternalAccountId }),
    Result: record(InternalAccount.InternalAccount),
    execute: ({ platformId, id }) =>
      sql`SELECT record FROM internal_accounts WHERE platform_id = ${platformId} AND id = ${id}`
  })

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(InternalAccount.InternalAccount),
    execute: (request) => sql`SELECT record FROM internal_accounts
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Listing,
    Result: Count,
    execute: (request) => sql`SELECT count(*)::int AS count FROM internal_accounts WHERE ${sql.and(matching(request))}`
  })

  const setPrivateEnabled = SqlSchema.findOne({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      id: InternalAccount.InternalAccountId,
      privateEnabled: Schema.Boolean,
      at: Schema.DateTimeUtc
    }),
    Result: record(InternalAccount.InternalAccount),
    execute: ({ platformId, id, privateEnabled, at }) =>
      sql`UPDATE internal_accounts
        SET record = record || jsonb_build_object('privateEnabled', ${privateEnabled ? "true" : "false"}::boolean, 'updatedAt', ${at}::text)
        WHERE platform_id = ${platformId} AND id = ${id} AND type = 'EMBEDDED_WALLET'
        RETURNING record`
  })

  return InternalAccountRepo.InternalAccountRepo.of({
    insert: (platformId, account) => insertOne({ platformId, accounts: [account] }),

    insertAll: (platformId, accounts) =>
      Arr.isNonEmptyReadonlyArray(accounts) ? insertMany({ platformId, accounts }) : Effect.void,

    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.findById"))),

    list: (platformId, filter, page) =>
      Effect.all([rows({ platformId, filter, page }), count({ platformId, filter, page })], {
        concurrency: "unbounded"
      }).pipe(
        Effect.map(([accounts, totalCount]) => Page.fromOverfetch(accounts, page, keyOf, totalCount)),
        Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.list"))
      ),

    setPrivateEnabled: (platformId, id, privateEnabled, at) =>
      setPrivateEnabled({ platformId, id, privateEnabled, at }).pipe(
        Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.setPrivateEnabled"))
      )
  })
})

/** Provides `InternalAccountRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<InternalAccountRepo.InternalAccountRepo, never, SqlClient.SqlClient> = Layer.effect(
  InternalAccountRepo.InternalAccountRepo,
  make
)
