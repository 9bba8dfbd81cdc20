import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Card, CardReveal, Errors, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Schema } from "effect"

const Row = Schema.Struct({
  tokenHash: Schema.String,
  platformId: Platform.PlatformId,
  cardId: Card.CardId,
  createdAt: Schema.DateTimeUtcFromDate,
  expiresAt: Schema.DateTimeUtcFromDate
})

const Values = Schema.Struct({
  ...Row.fields,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
})

const select = `token_hash AS "tokenHash", platform_id AS "platformId", card_id AS "cardId",
  created_at AS "createdAt", expires_at AS "expiresAt"`

/**
 * `CardRevealRepo` on the `card_reveals` table (migration `0031_cards`). `consume` is one guarded
 * `UPDATE … WHERE used_at IS NULL AND expires_at > now`, so of concurrent loads of one link exactly one gets it.
 */
export const make: Effect.Effect<
  Context.Tag.Service<CardReveal.CardRevealRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const insert = SqlSchema.void({
    Request: Values,
    execute: (values) =>
      sql`INSERT INTO card_reveals ${sql.insert({
        token_hash: values.tokenHash,
        platform_id: values.platformId,
        card_id: values.cardId,
        created_at: values.createdAt,
        expires_at: values.expiresAt
      })}`
  })

  const find = SqlSchema.findOne({
    Request: Schema.String,
    Result: Row,
    execute: (tokenHash) => sql`SELECT ${sql.unsafe(select)} FROM card_reveals WHERE token_hash = ${tokenHash}`
  })

  const consume = SqlSchema.findOne({
    Request: Schema.Struct({ tokenHash: Schema.String, now: Schema.DateTimeUtc }),
    Result: Row,
    execute: ({ now, tokenHash }) =>
      sql`UPDATE card_reveals SET used_at = ${now}::timestamptz
            WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}::timestamptz
            RETURNING ${sql.unsafe(select)}`
  })

  const fail = Errors.StoreFailure.wrap
  return CardReveal.CardRevealRepo.of({
    insert: (reveal) => insert(reveal).pipe(Effect.mapError(fail("cardReveals.insert"))),
    find: (tokenHash) => find(tokenHash).pipe(Effect.mapError(fail("cardReveals.find"))),
    consume: (tokenHash, now) => consume({ tokenHash, now }).pipe(Effect.mapError(fail("cardReveals.consume")))
  })
})

/** Provides `CardRevealRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<CardReveal.CardRevealRepo, never, SqlClient.SqlClient> = Layer.effect(
  CardReveal.CardRevealRepo,
  make
)
