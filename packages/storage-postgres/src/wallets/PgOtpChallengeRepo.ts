import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { AuthMethod, Errors, OtpChallenge, OtpChallengeRepo, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record, Returned } from "../internal/rows.js"

const ByCredential = Schema.Struct({ platformId: Platform.PlatformId, authMethodId: AuthMethod.AuthMethodId })

const Issued = Schema.Struct({ ...ByCredential.fields, issuedAt: Schema.DateTimeUtc })

/**
 * `OtpChallengeRepo` on the `otp_challenges` table (migration `0023_wallet_auth`), one row per (platform,
 * credential), every statement scoped by `platform_id`. Records are decoded with the core schema on every read.
 *
 * Guarantees:
 * - `put` is one `INSERT … ON CONFLICT DO UPDATE`: the new challenge replaces the old.
 * - `take` is one `DELETE … WHERE issued_at = issuedAt`: of concurrent takes exactly one gets `true`, and a take of
 *   a replaced challenge gets `false`.
 * - `discard` is one unconditional `DELETE` of the credential's row.
 * - `recordFailure` is one guarded `UPDATE` incrementing `failedAttempts` in the record, returning the new count:
 *   concurrent failures are all counted.
 */
export const make: Effect.Effect<
  Context.Tag.Service<OtpChallengeRepo.OtpChallengeRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const put = SqlSchema.void({
    Request: Schema.Struct({ platformId: Platform.PlatformId, challenge: OtpChallenge.OtpChallenge }),
    execute: ({ platformId, challenge }) =>
      Effect.flatMap(
        jsonText(challenge),
        (json) =>
          sql`INSERT INTO otp_challenges ${sql.insert({
            platform_id: platformId,
            auth_method_id: challenge.authMethodId,
            record: json,
            issued_at: challenge.issuedAt
          })} ON CONFLICT (platform_id, auth_method_id)
            DO UPDATE SET record = excluded.record, issued_at = excluded.issued_at`
      )
  })

  const find = SqlSchema.findOne({
    Request: ByCredential,
    Result: record(OtpChallenge.OtpChallenge),
    execute: ({ platformId, authMethodId }) =>
      sql`SELECT record FROM otp_challenges WHERE platform_id = ${platformId} AND auth_method_id = ${authMethodId}`
  })

  const take = SqlSchema.findOne({
    Request: Issued,
    Result: Returned,
    execute: ({ platformId, authMethodId, issuedAt }) =>
      sql`DELETE FROM otp_challenges
        WHERE platform_id = ${platformId} AND auth_method_id = ${authMethodId}
          AND issued_at = ${issuedAt}::timestamptz
        RETURNING auth_method_id AS id`
  })

  const discard = SqlSchema.void({
    Request: ByCredential,
    execute: ({ platformId, authMethodId }) =>
      sql`DELETE FROM otp_challenges WHERE platform_id = ${platformId} AND auth_method_id = ${authMethodId}`
  })

  const recordFailure = SqlSchema.findOne({
    Request: Issued,
    Result: Count,
    execute: ({ platformId, authMethodId, issuedAt }) =>
      sql`UPDATE otp_challenges
        SET record = jsonb_set(record, '{failedAttempts}', to_jsonb((record->>'failedAttempts')::int + 1))
        WHERE platform_id = ${platformId} AND auth_method_id = ${authMethodId}
          AND issued_at = ${issuedAt}::timestamptz
        RETURNING (record->>'failedAttempts')::int AS count`
  })

  return OtpChallengeRepo.OtpChallengeRepo.of({
    put: (platformId, challenge) =>
      put({ platformId, challenge }).pipe(Effect.mapError(Errors.StoreFailure.wrap("otpChallenges.put"))),
    find: (platformId, authMethodId) =>
      find({ platformId, authMethodId }).pipe(Effect.mapError(Errors.StoreFailure.wrap("otpChallenges.find"))),
    take: (platformId, authMethodId, issuedAt) =>
      take({ platformId, authMethodId, issuedAt }).pipe(
        Effect.map(Option.isSome),
        Effect.mapError(Errors.StoreFailure.wrap("otpChallenges.take"))
      ),
    discard: (platformId, authMethodId) =>
      discard({ platformId, authMethodId }).pipe(Effect.mapError(Errors.StoreFailure.wrap("otpChallenges.discard"))),
    recordFailure: (platformId, authMethodId, issuedAt) =>
      recordFailure({ platformId, authMethodId, issuedAt }).pipe(
        Effect.map(Option.getOrElse(() => 0)),
        Effect.mapError(Errors.StoreFailure.wrap("otpChallenges.recordFailure"))
      )
  })
})

/** Provides `OtpChallengeRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<OtpChallengeRepo.OtpChallengeRepo, never, SqlClient.SqlClient> = Layer.effect(
  OtpChallengeRepo.OtpChallengeRepo,
  make
)
