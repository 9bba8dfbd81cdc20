import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  Errors,
  Page,
  Stablecoin,
  StablecoinErrors,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinRepo
} from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { afterCursor, orderBy, overfetch, PageRequest } from "../internal/keyset.js"
import { record } from "../internal/rows.js"
import { isUniqueViolation } from "../internal/sqlState.js"
import { storable } from "../internal/text.js"
import { stablecoinsNetworkTokenKey } from "./internal/constraints.js"

const LinkRow = Schema.Struct({
  platformId: Schema.String,
  credentialRef: Schema.String,
  record: StablecoinProviderAccount.StablecoinProviderAccount
})

const keyOf = (row: { readonly createdAt: Page.Cursor["createdAt"]; readonly id: string }): Page.Cursor => ({
  createdAt: row.createdAt,
  id: row.id
})

const encodePage = Schema.encode(PageRequest)
const encodeLink = Schema.encode(StablecoinProviderAccount.StablecoinProviderAccount)
const encodeCoin = Schema.encode(Stablecoin.Stablecoin)
const encodeOperation = Schema.encode(StablecoinOperation.StablecoinOperation)
const decodeLinkRows = Schema.decodeUnknown(Schema.Array(LinkRow))
const decodeLinks = Schema.decodeUnknown(Schema.Array(record(StablecoinProviderAccount.StablecoinProviderAccount)))
const decodeCoins = Schema.decodeUnknown(Schema.Array(record(Stablecoin.Stablecoin)))
const decodeOperations = Schema.decodeUnknown(Schema.Array(record(StablecoinOperation.StablecoinOperation)))

/**
 * `StablecoinRepo` on the tables of migration `0034_stablecoins`, every statement scoped by `platform_id`.
 *
 * Guarantees: each insert is one `INSERT` (a second insert of an id fails as `StoreFailure`); each list is one
 * keyset `SELECT`, newest first, on an index ending in `(created_at, id)`, without a count.
 */
export const make: Effect.Effect<
  Context.Tag.Service<StablecoinRepo.StablecoinRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const fail = Errors.StoreFailure.wrap
  const page = <A extends { readonly createdAt: Page.Cursor["createdAt"]; readonly id: string }>(
    table: string,
    conditions: Array<Fragment>,
    request: Page.PageRequest,
    decode: (rows: unknown) => Effect.Effect<ReadonlyArray<A>, unknown>
  ) =>
    Effect.gen(function* () {
      const encoded = yield* encodePage(request)
      const rows = yield* sql`SELECT record FROM ${sql(table)}
            WHERE ${sql.and([...conditions, ...afterCursor(sql, encoded)])}
            ${orderBy(sql, "desc")} LIMIT ${overfetch(encoded)}`
      return Page.fromOverfetch(yield* decode(rows), request, keyOf)
    })
  return StablecoinRepo.StablecoinRepo.of({
    insertProviderAccount: (stored) =>
      Effect.gen(function* () {
        const encoded = yield* encodeLink(stored.account)
        yield* sql`INSERT INTO stablecoin_provider_accounts ${sql.insert({
          id: stored.account.id,
          platform_id: stored.platformId,
          provider: stored.account.provider,
          status: stored.account.status,
          credential_ref: stored.credentialRef,
          record: yield* jsonText(encoded),
          created_at: encoded.createdAt
        })}`
      }).pipe(Effect.mapError(fail("stablecoinProviderAccounts.insert"))),
    findProviderAccount: (platformId, id) =>
      Effect.gen(function* () {
        if (!storable(id)) return Option.none()
        const rows = yield* sql`SELECT platform_id AS "platformId", credential_ref AS "credentialRef", record
              FROM stablecoin_provider_accounts WHERE platform_id = ${platformId} AND id = ${id}`
        return Option.map(
          Option.fromNullable((yield* decodeLinkRows(rows))[0]),
          (row): StablecoinProviderAccount.StoredProviderAccount => ({
            platformId: row.platformId,
            account: row.record,
            credentialRef: row.credentialRef
          })
        )
      }).pipe(Effect.mapError(fail("stablecoinProviderAccounts.findById"))),
    listProviderAccounts: (platformId, filter, request) => {
      const conditions = [sql`platform_id = ${platformId}`]
      if (filter.provider !== undefined) conditions.push(sql`provider = ${filter.provider}`)
      if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
      return page("stablecoin_provider_accounts", conditions, request, decodeLinks).pipe(
        Effect.mapError(fail("stablecoinProviderAccounts.list"))
      )
    },
    insertStablecoin: (platformId, stablecoin) =>
      Effect.gen(function* () {
        const encoded = yield* encodeCoin(stablecoin)
        yield* sql`INSERT INTO stablecoins ${sql.insert({
          id: stablecoin.id,
          platform_id: platformId,
          provider: stablecoin.provider,
          issuance_status: stablecoin.issuanceStatus,
          grid_operations_status: stablecoin.gridOperationsStatus,
          record: yield* jsonText(encoded),
          created_at: encoded.createdAt
        })}`
      }).pipe(
        Effect.mapError((error) =>
          isUniqueViolation(error, stablecoinsNetworkTokenKey)
            ? StablecoinErrors.StablecoinAlreadyRegistered.of(stablecoin.network, stablecoin.networkTokenIdentifier)
            : fail("stablecoins.insert")(error)
        )
      ),
    findStablecoin: (platformId, id) =>
      Effect.gen(function* () {
        const rows = yield* sql`SELECT record FROM stablecoins WHERE platform_id = ${platformId} AND id = ${id}`
        return Option.fromNullable((yield* decodeCoins(rows))[0])
      }).pipe(Effect.mapError(fail("stablecoins.findById"))),
    listStablecoins: (platformId, filter, request) => {
      const conditions = [sql`platform_id = ${platformId}`]
      if (filter.provider !== undefined) conditions.push(sql`provider = ${filter.provider}`)
      if (filter.issuanceStatus !== undefined) conditions.push(sql`issuance_status = ${filter.issuanceStatus}`)
      if (filter.gridOperationsStatus !== undefined) {
        conditions.push(sql`grid_operations_status = ${filter.gridOperationsStatus}`)
      }
      return page("stablecoins", conditions, request, decodeCoins).pipe(Effect.mapError(fail("stablecoins.list")))
    },
    insertOperation: (stored) =>
      Effect.gen(function* () {
        const encoded = yield* encodeOperation(stored.operation)
        yield* sql`INSERT INTO stablecoin_operations ${sql.insert({
          id: stored.operation.id,
          platform_id: stored.platformId,
          stablecoin_id: stored.operation.stablecoinId,
          status: stored.operation.status,
          record: yield* jsonText(encoded),
          created_at: encoded.createdAt
        })}`
      }).pipe(Effect.mapError(fail("stablecoinOperations.insert"))),
    updateOperation: (stored, expectedStatus) =>
      Effect.gen(function* () {
        const encoded = yield* encodeOperation(stored.operation)
        const rows = yield* sql`UPDATE stablecoin_operations
            SET status = ${stored.operation.status}, record = ${yield* jsonText(encoded)}::jsonb
            WHERE platform_id = ${stored.platformId} AND id = ${stored.operation.id} AND status = ${expectedStatus}
            RETURNING id`
        return rows.length === 1
      }).pipe(Effect.mapError(fail("stablecoinOperations.update"))),
    findOperation: (platformId, id) =>
      Effect.gen(function* () {
        const rows =
          yield* sql`SELECT record FROM stablecoin_operations WHERE platform_id = ${platformId} AND id = ${id}`
        return Option.fromNullable((yield* decodeOperations(rows))[0])
      }).pipe(Effect.mapError(fail("stablecoinOperations.findById"))),
    listOperations: (platformId, stablecoinId, request) =>
      storable(stablecoinId)
        ? page(
            "stablecoin_operations",
            [sql`platform_id = ${platformId}`, sql`stablecoin_id = ${stablecoinId}`],
            request,
            decodeOperations
          ).pipe(Effect.mapError(fail("stablecoinOperations.list")))
        : Effect.succeed({ data: [], hasMore: false })
  })
})

/** Provides `StablecoinRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<StablecoinRepo.StablecoinRepo, never, SqlClient.SqlClient> = Layer.effect(
  StablecoinRepo.StablecoinRepo,
  make
)
