import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { Fragment } from "@effect/sql/Statement"
import { Card, CardRepo, Errors, Page, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { beyondCursor, orderBy, overfetch, PageRequest } from "../internal/keyset.js"
import { record, Returned } from "../internal/rows.js"
import { storable } from "../internal/text.js"

const Row = Schema.Struct({
  platformId: Platform.PlatformId,
  record: Card.Card,
  version: Schema.Int,
  issuerSecret: Schema.String
})

const Listing = Schema.Struct({
  platformId: Platform.PlatformId,
  filter: Schema.Struct({
    customerId: Schema.optional(Schema.String),
    accountId: Schema.optional(Schema.String),
    platformCardId: Schema.optional(Schema.String),
    status: Schema.optional(Card.CardStatus),
    sortOrder: Schema.Literal("asc", "desc")
  }),
  page: PageRequest
})

const Insert = Schema.Struct({
  platformId: Platform.PlatformId,
  card: Card.Card,
  version: Schema.Int,
  issuerSecret: Schema.String
})

const Update = Schema.Struct({
  platformId: Platform.PlatformId,
  card: Card.Card,
  version: Schema.Int,
  expectedVersion: Schema.Int
})

const keyOf = (card: Card.Card): Page.Cursor => ({ createdAt: card.createdAt, id: card.id })

const select = `SELECT platform_id AS "platformId", record, version, issuer_secret AS "issuerSecret" FROM cards`

/**
 * `CardRepo` on the `cards` table (migration `0031_cards`), every statement scoped by `platform_id`.
 *
 * Guarantees: `insert` is one `INSERT` (a second insert of an id fails as `StoreFailure`); `update` is one guarded
 * `UPDATE … WHERE version = expected`, so of concurrent updates from one version exactly one applies; `list` is one
 * keyset `SELECT` in either order on an index per filter, without a count.
 */
export const make: Effect.Effect<Context.Tag.Service<CardRepo.CardRepo>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const columns = (card: typeof Card.Card.Encoded) =>
      Effect.map(jsonText(card), (json) => ({
        customer_id: card.customerId,
        funding_source: card.fundingSource ?? null,
        platform_card_id: card.platformCardId,
        status: card.status,
        record: json,
        created_at: card.createdAt
      }))

    const insert = SqlSchema.void({
      Request: Insert,
      execute: ({ card, issuerSecret, platformId, version }) =>
        Effect.flatMap(
          columns(card),
          (values) =>
            sql`INSERT INTO cards ${sql.insert({ id: card.id, platform_id: platformId, version, issuer_secret: issuerSecret, ...values })}`
        )
    })

    const findById = SqlSchema.findOne({
      Request: Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String }),
      Result: Row,
      execute: ({ id, platformId }) => sql`${sql.unsafe(select)} WHERE platform_id = ${platformId} AND id = ${id}`
    })

    const matching = ({ filter, platformId }: typeof Listing.Encoded): Array<Fragment> => {
      const conditions: Array<Fragment> = [sql`platform_id = ${platformId}`]
      if (filter.customerId !== undefined) conditions.push(sql`customer_id = ${filter.customerId}`)
      if (filter.accountId !== undefined) conditions.push(sql`funding_source = ${filter.accountId}`)
      if (filter.platformCardId !== undefined) conditions.push(sql`platform_card_id = ${filter.platformCardId}`)
      if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}`)
      return conditions
    }

    const rows = SqlSchema.findAll({
      Request: Listing,
      Result: record(Card.Card),
      execute: (request) => sql`SELECT record FROM cards
          WHERE ${sql.and([...matching(request), ...beyondCursor(sql, request.page, request.filter.sortOrder)])}
          ${orderBy(sql, request.filter.sortOrder)} LIMIT ${overfetch(request.page)}`
    })

    const update = SqlSchema.findOne({
      Request: Update,
      Result: Returned,
      execute: ({ card, expectedVersion, platformId, version }) =>
        Effect.flatMap(
          columns(card),
          (values) => sql`UPDATE cards SET ${sql.update({ ...values, version })}
              WHERE platform_id = ${platformId} AND id = ${card.id} AND version = ${expectedVersion}
              RETURNING id`
        )
    })

    const fail = Errors.StoreFailure.wrap
    const filterStorable = (filter: Card.CardFilter) =>
      [filter.customerId, filter.accountId, filter.platformCardId].every(
        (value) => value === undefined || storable(value)
      )
    return CardRepo.CardRepo.of({
      insert: (stored) =>
        insert({
          platformId: Platform.PlatformId.make(stored.platformId),
          card: stored.card,
          version: stored.version,
          issuerSecret: stored.issuerSecret
        }).pipe(Effect.mapError(fail("cards.insert"))),
      findById: (platformId, id) =>
        findById({ platformId, id }).pipe(
          Effect.map(
            Option.map((row): Card.StoredCard => ({
              platformId: row.platformId,
              card: row.record,
              version: row.version,
              issuerSecret: row.issuerSecret
            }))
          ),
          Effect.mapError(fail("cards.findById"))
        ),
      list: (platformId, filter, page) =>
        !filterStorable(filter)
          ? Effect.succeed(Page.fromOverfetch([], page, keyOf))
          : rows({ platformId, filter, page }).pipe(
              Effect.map((cards) => Page.fromOverfetch(cards, page, keyOf)),
              Effect.mapError(fail("cards.list"))
            ),
      update: (next, expectedVersion) =>
        update({
          platformId: Platform.PlatformId.make(next.platformId),
          card: next.card,
          version: next.version,
          expectedVersion
        }).pipe(Effect.map(Option.isSome), Effect.mapError(fail("cards.update")))
    })
  }
)

/** Provides `CardRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<CardRepo.CardRepo, never, SqlClient.SqlClient> = Layer.effect(CardRepo.CardRepo, make)
