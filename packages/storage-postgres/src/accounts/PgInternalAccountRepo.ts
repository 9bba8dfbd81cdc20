import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Errors, InternalAccount, InternalAccountRepo, Page, type Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText, timestampText } from "../internal/encoding.js"
import { afterCursor } from "../internal/keyset.js"

const encodeAccount = Schema.encode(InternalAccount.InternalAccount)
const decodeRecords = Schema.decodeUnknown(Schema.Array(Schema.Struct({ record: InternalAccount.InternalAccount })))
const decodeCount = Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ count: Schema.NonNegativeInt })))

const keyOf = (account: InternalAccount.InternalAccount): Page.Cursor => ({ createdAt: account.createdAt, id: account.id })

/**
 * `InternalAccountRepo` on the `internal_accounts` table, every statement scoped by `platform_id`: another
 * platform's account is never found nor listed. An id is inserted once (a second insert fails as `StoreFailure`).
 * `list` is a keyset page, newest first by `(createdAt, id)` with ids in byte order (`COLLATE "C"`, the JavaScript
 * order), `owner: "customers"` selecting accounts with a `customerId` and `"platform"` those without; its
 * `totalCount` counts the matching accounts (a handful per customer, so counting them is cheap). Records are
 * decoded with the core schema on every read; a row that does not decode fails as `StoreFailure`.
 */
export const make: Effect.Effect<Context.Tag.Service<InternalAccountRepo.InternalAccountRepo>, never, SqlClient.SqlClient> =
  Effect.map(SqlClient.SqlClient, (sql) => {
    const matching = (platformId: Platform.PlatformId, filter: InternalAccountRepo.InternalAccountFilter) => {
      const conditions: Array<Fragment> = [
        sql`platform_id = ${platformId}`,
        filter.owner === "platform" ? sql`customer_id IS NULL` : sql`customer_id IS NOT NULL`
      ]
      if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
      if (filter.type !== undefined) conditions.push(sql`type = ${filter.type}`)
      if (filter.currency !== undefined) conditions.push(sql`currency = ${filter.currency}`)
      return conditions
    }

    return InternalAccountRepo.InternalAccountRepo.of({
      insert: (platformId, account) =>
        Effect.gen(function* () {
          const record = yield* Effect.flatMap(encodeAccount(account), jsonText)
          yield* sql`INSERT INTO internal_accounts ${sql.insert({
            id: account.id,
            platform_id: platformId,
            customer_id: account.customerId ?? null,
            type: account.type,
            currency: account.currency,
            record,
            created_at: timestampText(account.createdAt)
          })}`
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.insert"))),

      findById: (platformId, id) =>
        sql`SELECT record FROM internal_accounts WHERE platform_id = ${platformId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeRecords),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.record)),
          Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.findById"))
        ),

      list: (platformId, filter, page) =>
        Effect.gen(function* () {
          const conditions = matching(platformId, filter)
          const [rows, count] = yield* Effect.all(
            [
              sql`SELECT record FROM internal_accounts WHERE ${sql.and([...conditions, ...afterCursor(sql, page)])}
                ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeRecords)),
              sql`SELECT count(*)::int AS count FROM internal_accounts WHERE ${sql.and(conditions)}`.pipe(
                Effect.flatMap(decodeCount)
              )
            ],
            { concurrency: "unbounded" }
          )
          return Page.fromOverfetch(
            rows.map((row) => row.record),
            page,
            keyOf,
            count[0].count
          )
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("internalAccounts.list")))
    })
  })

/** Provides `InternalAccountRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<InternalAccountRepo.InternalAccountRepo, never, SqlClient.SqlClient> = Layer.effect(
  InternalAccountRepo.InternalAccountRepo,
  make
)
