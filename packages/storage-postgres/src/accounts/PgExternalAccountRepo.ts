import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Errors, ExternalAccount, ExternalAccountRepo, ExternalAccountStatus, Page, Platform } from "@payrail/core"
import { type Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, overfetch, PageRequest } from "../internal/keyset.js"
import { Count, record, Returned } from "../internal/rows.js"
import { isUniqueViolation } from "../internal/sqlState.js"
import {
  countScopeOf,
  countScopesOf,
  countSlotOf,
  defaultLockClass,
  identifierKey,
  lockKeyOf,
  ownerKeyOf,
  ownerOf
} from "./internal/externalAccounts.js"

type Account = ExternalAccount.ExternalAccount

const Insertion = Schema.Struct({
  platformId: Platform.PlatformId,
  account: ExternalAccount.ExternalAccount,
  identifier: Schema.String
})
type Insertion = typeof Insertion.Encoded

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: ExternalAccount.ExternalAccountId })

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    owner: Schema.Literal("customers", "platform"),
    customerId: Schema.optional(Schema.String),
    currency: Schema.optional(Schema.String)
  }),
  page: PageRequest
})

const keyOf = (account: Account): Page.Cursor => ({ createdAt: account.createdAt, id: account.id })

const exists = ExternalAccountRepo.ExternalAccountExists.of()

/**
 * `ExternalAccountRepo` on `external_accounts` (each record encoded in `record`, with columns to find, filter and
 * order) and `external_account_counts`, every statement scoped by `platform_id`.
 *
 * Guarantees:
 * - `insert` is unique on (platform, owner, account type, identifier) among live accounts (a partial unique index):
 *   of concurrent inserts of one destination exactly one succeeds, the others fail `ExternalAccountExists`.
 * - A new `defaultUmaDepositAccount` clears the owner's previous default (its `updatedAt` becomes the new account's)
 *   in the same unit of work, under a transaction-scoped advisory lock on the owner, so concurrent default inserts
 *   for one owner all succeed and leave exactly one default; a partial unique index on live defaults is the last
 *   guard. The lock needs READ COMMITTED (the default), where each statement sees what the previous holder committed.
 * - `delete` marks the account deleted (at the `Clock` time) in one statement: it is never found, listed nor
 *   counted again, its destination may be added again, and of concurrent deletes exactly one returns true.
 * - `transition` is a compare-and-set on `status` in one `UPDATE`; it stores `next` but keeps the stored
 *   `defaultUmaDepositAccount`, which only `insert` moves, so a transition from a stale read cannot revive a default.
 * - `list` is a keyset page, newest first by `(createdAt, id)`, ids in byte order (`COLLATE "C"`). `totalCount` is
 *   read from counters maintained in the statement that inserts or deletes an account: it sums at most
 *   `countSlots` rows per currency, never the matching accounts, so a page costs the same at any table size.
 */
export const make: Effect.Effect<
  Context.Tag.Service<ExternalAccountRepo.ExternalAccountRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insertWithCounts = ({ platformId, account, identifier }: Insertion, json: string) => {
    const scopes = countScopesOf(account)
    return sql`WITH inserted AS (
          INSERT INTO external_accounts ${sql.insert({
            id: account.id,
            platform_id: platformId,
            owner: ownerOf(account),
            owner_key: ownerKeyOf(account),
            customer_id: account.customerId ?? null,
            account_type: account.accountInfo.accountType,
            identifier,
            currency: account.currency,
            status: account.status,
            default_uma_deposit_account: account.defaultUmaDepositAccount,
            count_slot: countSlotOf(account.id),
            record: json,
            created_at: account.createdAt
          })} RETURNING id
        )
        INSERT INTO external_account_counts AS c (platform_id, scope, currency, slot, n)
        SELECT ${platformId}::text, s.scope, ${account.currency}::text, s.slot, 1
        FROM unnest(${scopes.map((row) => row.scope)}::text[], ${scopes.map((row) => row.slot)}::smallint[]) AS s(scope, slot)
        CROSS JOIN inserted
        ON CONFLICT (platform_id, scope, currency, slot) DO UPDATE SET n = c.n + 1`
  }

  // Taken first, so that the previous holder has committed before this unit of work looks for the default.
  const clearDefault = ({ platformId, account }: Insertion) =>
    Effect.zipRight(
      sql`SELECT pg_advisory_xact_lock(${defaultLockClass}::int, hashtext(${lockKeyOf(platformId, account)}::text))`,
      sql`UPDATE external_accounts SET default_uma_deposit_account = false,
            record = record || jsonb_build_object('defaultUmaDepositAccount', false, 'updatedAt', ${account.updatedAt}::text)
          WHERE platform_id = ${platformId} AND owner_key = ${ownerKeyOf(account)}
            AND default_uma_deposit_account AND deleted_at IS NULL`
    )

  const matching = ({ platformId, filter }: typeof Listing.Encoded) => {
    const conditions: Array<Fragment> = [
      sql`platform_id = ${platformId}`,
      sql`deleted_at IS NULL`,
      sql`owner = ${filter.owner}`
    ]
    if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
    if (filter.currency !== undefined) conditions.push(sql`currency = ${filter.currency}`)
    return conditions
  }

  const insert = SqlSchema.void({
    Request: Insertion,
    execute: (request) =>
      Effect.flatMap(jsonText(request.account), (json) =>
        request.account.defaultUmaDepositAccount
          ? sql.withTransaction(Effect.zipRight(clearDefault(request), insertWithCounts(request, json)))
          : insertWithCounts(request, json)
      )
  })

  const findById = SqlSchema.findOne({
    Request: ById,
    Result: record(ExternalAccount.ExternalAccount),
    execute: ({ platformId, id }) => sql`SELECT record FROM external_accounts
        WHERE platform_id = ${platformId} AND id = ${id} AND deleted_at IS NULL`
  })

  const rows = SqlSchema.findAll({
    Request: Listing,
    Result: record(ExternalAccount.ExternalAccount),
    execute: (request) => sql`SELECT record FROM external_accounts
        WHERE ${sql.and([...matching(request), ...afterCursor(sql, request.page)])}
        ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${overfetch(request.page)}`
  })

  const count = SqlSchema.single({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      scope: Schema.String,
      currency: Schema.optional(Schema.String)
    }),
    Result: Count,
    execute: ({
      platformId,
      scope,
      currency
    }) => sql`SELECT coalesce(sum(n), 0)::int AS count FROM external_account_counts
        WHERE ${sql.and([
          sql`platform_id = ${platformId}`,
          sql`scope = ${scope}`,
          ...(currency === undefined ? [] : [sql`currency = ${currency}`])
        ])}`
  })

  const totalCount = (platformId: Platform.PlatformId, filter: ExternalAccountRepo.ExternalAccountFilter) => {
    const scope = countScopeOf(filter)
    return scope === undefined ? Effect.succeed(0) : count({ platformId, scope, currency: filter.currency })
  }

  const transition = SqlSchema.findOne({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      id: ExternalAccount.ExternalAccountId,
      from: ExternalAccountStatus.ExternalAccountStatus,
      next: ExternalAccount.ExternalAccount
    }),
    Result: Returned,
    execute: ({ platformId, id, from, next }) =>
      Effect.flatMap(
        jsonText(next),
        (json) => sql`UPDATE external_accounts SET status = ${next.status},
              record = ${json}::jsonb || jsonb_build_object('defaultUmaDepositAccount', default_uma_deposit_account)
            WHERE platform_id = ${platformId} AND id = ${id} AND status = ${from} AND deleted_at IS NULL
            RETURNING id`
      )
  })

  // The counters change in the statement that marks the account deleted, and only if it did.
  const markDeleted = SqlSchema.findOne({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      id: ExternalAccount.ExternalAccountId,
      deletedAt: Schema.DateTimeUtc
    }),
    Result: Returned,
    execute: ({ platformId, id, deletedAt }) => sql`WITH deleted AS (
          UPDATE external_accounts SET deleted_at = ${deletedAt}::timestamptz
          WHERE platform_id = ${platformId} AND id = ${id} AND deleted_at IS NULL
          RETURNING id, platform_id, owner, customer_id, currency, count_slot
        ), counted AS (
          UPDATE external_account_counts c SET n = c.n - 1
          FROM deleted d CROSS JOIN LATERAL (VALUES (d.owner COLLATE "C", d.count_slot), (d.customer_id, 0::smallint)) AS s(scope, slot)
          WHERE s.scope IS NOT NULL AND c.platform_id = d.platform_id AND c.scope = s.scope
            AND c.currency = d.currency AND c.slot = s.slot
          RETURNING 1
        )
        SELECT id FROM deleted`
  })

  return ExternalAccountRepo.ExternalAccountRepo.of({
    insert: (platformId, account, identifier) =>
      insert({ platformId, account, identifier }).pipe(
        Effect.mapError((error) =>
          isUniqueViolation(error, identifierKey) ? exists : Errors.StoreFailure.wrap("externalAccounts.insert")(error)
        )
      ),

    findById: (platformId, id) =>
      findById({ platformId, id }).pipe(Effect.mapError(Errors.StoreFailure.wrap("externalAccounts.findById"))),

    list: (platformId, filter, page) =>
      Effect.all([rows({ platformId, filter, page }), totalCount(platformId, filter)], {
        concurrency: "unbounded"
      }).pipe(
        Effect.map(([accounts, total]) => Page.fromOverfetch(accounts, page, keyOf, total)),
        Effect.mapError(Errors.StoreFailure.wrap("externalAccounts.list"))
      ),

    transition: (platformId, id, from, next) =>
      transition({ platformId, id, from, next }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("externalAccounts.transition"))
      ),

    delete: (platformId, id) =>
      Effect.flatMap(DateTime.now, (deletedAt) => markDeleted({ platformId, id, deletedAt })).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("externalAccounts.delete"))
      )
  })
})

/** Provides `ExternalAccountRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<ExternalAccountRepo.ExternalAccountRepo, never, SqlClient.SqlClient> = Layer.effect(
  ExternalAccountRepo.ExternalAccountRepo,
  make
)
