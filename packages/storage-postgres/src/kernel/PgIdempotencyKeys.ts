import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { type Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { Errors, IdempotencyErrors, IdempotencyKeys, IdempotencyRecord, PlatformId } from "@payrail/core"
import { Count } from "../internal/rows.js"

const Scope = Schema.Struct({ platformId: PlatformId.PlatformId, key: IdempotencyRecord.IdempotencyKey })

/** A row of `idempotency_keys`; the response columns are null while its claim is uncommitted. */
const KeyRow = Schema.Struct({
  platform_id: PlatformId.PlatformId,
  key: IdempotencyRecord.IdempotencyKey,
  fingerprint: IdempotencyRecord.Fingerprint,
  created_at: Schema.DateTimeUtcFromDate,
  status: Schema.NullOr(Schema.Int),
  content_type: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String)
})
type KeyRow = typeof KeyRow.Type

const claimed: IdempotencyKeys.Claim = { _tag: "Claimed" }

const responseOf = (row: KeyRow): Option.Option<IdempotencyRecord.StoredResponse> =>
  row.status === null || row.content_type === null || row.body === null
    ? Option.none()
    : Option.some({ status: row.status, contentType: row.content_type, body: row.body })

/**
 * `IdempotencyKeys` on the `idempotency_keys` table (migration 0017). A claim takes a transaction-scoped
 * advisory lock on the key without waiting (`pg_try_advisory_xact_lock`): when another unit of work holds it, that
 * request is in progress and the claim fails at once, rather than queueing behind its uncommitted row. Holding the
 * lock, the same statement's `INSERT … ON CONFLICT DO NOTHING` claims the key; when the key has a committed row
 * already, a second statement reads it (a replay or a reused key).
 * The lock and the row are released by the unit of work's commit or rollback, so call it inside one.
 */
export const make: Effect.Effect<
  Context.Tag.Service<IdempotencyKeys.IdempotencyKeys>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  // One statement for a first request: take the key's transaction-scoped advisory lock without waiting and, only
  // when it was free, insert the claim. The lock's 64-bit key is a hash of the scope (a platform id holds no
  // space); a collision of two keys only makes one of two simultaneous requests answer "in progress".
  const lockAndInsert = SqlSchema.single({
    Request: Schema.Struct({ ...Scope.fields, fingerprint: Schema.String, createdAt: Schema.String }),
    Result: Schema.Struct({ locked: Schema.Boolean, inserted: Schema.Boolean }),
    execute: ({ createdAt, fingerprint, key, platformId }) =>
      sql`WITH lock AS (
          SELECT pg_try_advisory_xact_lock(hashtextextended(${platformId} || ' ' || ${key}, 0)) AS locked
        ), claimed AS (
          INSERT INTO idempotency_keys (platform_id, key, fingerprint, created_at)
          SELECT ${platformId}, ${key}, ${fingerprint}, ${createdAt}::timestamptz FROM lock WHERE locked
          ON CONFLICT (platform_id, key) DO NOTHING RETURNING 1
        ) SELECT locked, EXISTS (SELECT 1 FROM claimed) AS inserted FROM lock`
  })

  const select = SqlSchema.findOne({
    Request: Scope,
    Result: KeyRow,
    execute: ({ key, platformId }) =>
      sql`SELECT platform_id, key, fingerprint, created_at, status, content_type, body FROM idempotency_keys
        WHERE platform_id = ${platformId} AND key = ${key}`
  })

  const complete = SqlSchema.void({
    Request: Schema.Struct({ ...Scope.fields, ...IdempotencyRecord.StoredResponse.fields }),
    execute: ({ body, contentType, key, platformId, status }) =>
      sql`UPDATE idempotency_keys SET status = ${status}, content_type = ${contentType}, body = ${body}
        WHERE platform_id = ${platformId} AND key = ${key}`
  })

  const purge = SqlSchema.single({
    Request: Schema.String,
    Result: Count,
    execute: (cutoff) => sql`WITH purged AS (
        DELETE FROM idempotency_keys WHERE created_at < ${cutoff}::timestamptz RETURNING 1
      ) SELECT count(*)::int AS count FROM purged`
  })

  const claim = (
    scope: IdempotencyRecord.KeyScope,
    fingerprint: IdempotencyRecord.Fingerprint
  ): Effect.Effect<
    IdempotencyKeys.Claim,
    IdempotencyErrors.IdempotencyKeyInProgress | IdempotencyErrors.IdempotencyKeyReused | Errors.StoreFailure
  > =>
    Effect.gen(function* () {
      const createdAt = DateTime.formatIso(yield* DateTime.now)
      const { inserted, locked } = yield* lockAndInsert({ ...scope, fingerprint, createdAt })
      if (!locked) return yield* IdempotencyErrors.IdempotencyKeyInProgress.of()
      if (inserted) return claimed
      const found = yield* select(scope)
      // A row without a response was claimed and committed without completing, or purged just now: let the
      // client retry.
      const response = Option.flatMap(found, responseOf)
      if (Option.isNone(found) || Option.isNone(response)) {
        return yield* IdempotencyErrors.IdempotencyKeyInProgress.of()
      }
      if (found.value.fingerprint !== fingerprint) return yield* IdempotencyErrors.IdempotencyKeyReused.of()
      return { _tag: "Completed", response: response.value } satisfies IdempotencyKeys.Claim
    }).pipe(
      Effect.catchTags({
        SqlError: Errors.StoreFailure.wrap("idempotency_keys.claim"),
        NoSuchElementException: Errors.StoreFailure.wrap("idempotency_keys.claim"),
        ParseError: Errors.StoreFailure.wrap("idempotency_keys.claim")
      })
    )

  return IdempotencyKeys.IdempotencyKeys.of({
    claim,
    complete: (scope, response) =>
      complete({ ...scope, ...response }).pipe(Effect.mapError(Errors.StoreFailure.wrap("idempotency_keys.complete"))),
    find: (scope) =>
      select(scope).pipe(
        Effect.map(
          Option.flatMap((row) =>
            Option.map(responseOf(row), (response) => ({
              platformId: row.platform_id,
              key: row.key,
              fingerprint: row.fingerprint,
              response,
              createdAt: row.created_at
            }))
          )
        ),
        Effect.mapError(Errors.StoreFailure.wrap("idempotency_keys.find"))
      ),
    purgeOlderThan: (cutoff) =>
      purge(DateTime.formatIso(cutoff)).pipe(Effect.mapError(Errors.StoreFailure.wrap("idempotency_keys.purge")))
  })
})

/** Provides `IdempotencyKeys` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<IdempotencyKeys.IdempotencyKeys, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyKeys.IdempotencyKeys,
  make
)
