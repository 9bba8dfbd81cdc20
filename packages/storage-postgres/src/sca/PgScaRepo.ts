import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { EnrolledFactor, Errors, FactorReset, PendingChallenge, Platform, ScaLockout, ScaRepo } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { jsonText } from "../internal/encoding.js"
import { Count, record, Returned } from "../internal/rows.js"

const wrap = (operation: string) => Errors.StoreFailure.wrap(`sca.${operation}`)

const ById = Schema.Struct({ platformId: Platform.PlatformId, id: Schema.String })
const ByCustomer = Schema.Struct({ platformId: Platform.PlatformId, customerId: Schema.String })

/**
 * `ScaRepo` on the tables of migration `0032_sca`, every statement scoped by `platform_id`, records decoded with the
 * core schemas on every read. Guarantees: `takeChallenge` is one `DELETE … RETURNING` (of concurrent takes exactly
 * one gets `true`); `recordChallengeFailure` is one `UPDATE` incrementing `failedAttempts` in the record (concurrent
 * failures are all counted); puts are `INSERT … ON CONFLICT DO UPDATE`.
 */
export const make: Effect.Effect<Context.Tag.Service<ScaRepo.ScaRepo>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const putFactor = SqlSchema.void({
      Request: Schema.Struct({ platformId: Platform.PlatformId, factor: EnrolledFactor.EnrolledFactor }),
      execute: ({ platformId, factor }) =>
        Effect.flatMap(
          jsonText(factor),
          (json) =>
            sql`INSERT INTO sca_factors ${sql.insert({
              platform_id: platformId,
              id: factor.id,
              customer_id: factor.customerId,
              record: json,
              created_at: factor.createdAt
            })} ON CONFLICT (platform_id, id) DO UPDATE SET record = excluded.record`
        )
    })
    const listFactors = SqlSchema.findAll({
      Request: ByCustomer,
      Result: record(EnrolledFactor.EnrolledFactor),
      execute: ({ customerId, platformId }) =>
        sql`SELECT record FROM sca_factors WHERE platform_id = ${platformId} AND customer_id = ${customerId}
          ORDER BY created_at, id`
    })
    const deleteFactor = SqlSchema.findOne({
      Request: Schema.Struct({ ...ById.fields, customerId: Schema.String }),
      Result: Returned,
      execute: ({ customerId, id, platformId }) =>
        sql`DELETE FROM sca_factors WHERE platform_id = ${platformId} AND id = ${id} AND customer_id = ${customerId}
          RETURNING id`
    })
    const putChallenge = SqlSchema.void({
      Request: Schema.Struct({ platformId: Platform.PlatformId, challenge: PendingChallenge.PendingChallenge }),
      execute: ({ challenge, platformId }) =>
        Effect.flatMap(
          jsonText(challenge),
          (json) =>
            sql`INSERT INTO sca_challenges ${sql.insert({
              platform_id: platformId,
              id: challenge.id,
              customer_id: challenge.customerId,
              purpose: challenge.purpose,
              subject_id: challenge.subjectId,
              record: json
            })} ON CONFLICT (platform_id, id) DO UPDATE SET record = excluded.record`
        )
    })
    const findChallenge = SqlSchema.findOne({
      Request: ById,
      Result: record(PendingChallenge.PendingChallenge),
      execute: ({ id, platformId }) =>
        sql`SELECT record FROM sca_challenges WHERE platform_id = ${platformId} AND id = ${id}`
    })
    const findChallengeFor = SqlSchema.findOne({
      Request: Schema.Struct({
        ...ByCustomer.fields,
        purpose: PendingChallenge.ChallengePurpose,
        subjectId: Schema.String
      }),
      Result: record(PendingChallenge.PendingChallenge),
      execute: ({ customerId, platformId, purpose, subjectId }) =>
        sql`SELECT record FROM sca_challenges
          WHERE platform_id = ${platformId} AND customer_id = ${customerId} AND purpose = ${purpose}
            AND subject_id = ${subjectId}
          ORDER BY seq DESC LIMIT 1`
    })
    const takeChallenge = SqlSchema.findOne({
      Request: ById,
      Result: Returned,
      execute: ({ id, platformId }) =>
        sql`DELETE FROM sca_challenges WHERE platform_id = ${platformId} AND id = ${id} RETURNING id`
    })
    const recordChallengeFailure = SqlSchema.findOne({
      Request: ById,
      Result: Count,
      execute: ({ id, platformId }) =>
        sql`UPDATE sca_challenges
          SET record = jsonb_set(record, '{failedAttempts}', to_jsonb((record->>'failedAttempts')::int + 1))
          WHERE platform_id = ${platformId} AND id = ${id}
          RETURNING (record->>'failedAttempts')::int AS count`
    })
    const findGuard = SqlSchema.findOne({
      Request: ByCustomer,
      Result: record(ScaLockout.LoginGuard),
      execute: ({ customerId, platformId }) =>
        sql`SELECT record FROM sca_guards WHERE platform_id = ${platformId} AND customer_id = ${customerId}`
    })
    const putGuard = SqlSchema.void({
      Request: Schema.Struct({ platformId: Platform.PlatformId, guard: ScaLockout.LoginGuard }),
      execute: ({ guard, platformId }) =>
        Effect.flatMap(
          jsonText(guard),
          (json) =>
            sql`INSERT INTO sca_guards ${sql.insert({ platform_id: platformId, customer_id: guard.customerId, record: json })}
              ON CONFLICT (platform_id, customer_id) DO UPDATE SET record = excluded.record`
        )
    })
    const putReset = SqlSchema.void({
      Request: Schema.Struct({ platformId: Platform.PlatformId, reset: FactorReset.FactorReset }),
      execute: ({ platformId, reset }) =>
        Effect.flatMap(
          jsonText(reset),
          (json) =>
            sql`INSERT INTO sca_resets ${sql.insert({
              platform_id: platformId,
              id: reset.id,
              customer_id: reset.customerId,
              record: json
            })} ON CONFLICT (platform_id, id) DO UPDATE SET record = excluded.record`
        )
    })
    const findReset = SqlSchema.findOne({
      Request: Schema.Struct({ ...ById.fields, customerId: Schema.String }),
      Result: record(FactorReset.FactorReset),
      execute: ({ customerId, id, platformId }) =>
        sql`SELECT record FROM sca_resets WHERE platform_id = ${platformId} AND id = ${id} AND customer_id = ${customerId}`
    })
    const trust = SqlSchema.void({
      Request: Schema.Struct({ ...ByCustomer.fields, externalAccountId: Schema.String }),
      execute: ({ customerId, externalAccountId, platformId }) =>
        sql`INSERT INTO sca_trusted_beneficiaries ${sql.insert({
          platform_id: platformId,
          external_account_id: externalAccountId,
          customer_id: customerId
        })} ON CONFLICT (platform_id, external_account_id) DO UPDATE SET customer_id = excluded.customer_id`
    })
    const untrust = SqlSchema.void({
      Request: Schema.Struct({ platformId: Platform.PlatformId, externalAccountId: Schema.String }),
      execute: ({ externalAccountId, platformId }) =>
        sql`DELETE FROM sca_trusted_beneficiaries
          WHERE platform_id = ${platformId} AND external_account_id = ${externalAccountId}`
    })
    const isTrusted = SqlSchema.findOne({
      Request: Schema.Struct({ platformId: Platform.PlatformId, externalAccountId: Schema.String }),
      Result: Schema.Struct({ external_account_id: Schema.String }),
      execute: ({ externalAccountId, platformId }) =>
        sql`SELECT external_account_id FROM sca_trusted_beneficiaries
          WHERE platform_id = ${platformId} AND external_account_id = ${externalAccountId}`
    })

    return ScaRepo.ScaRepo.of({
      putFactor: (platformId, factor) => putFactor({ platformId, factor }).pipe(Effect.mapError(wrap("putFactor"))),
      listFactors: (platformId, customerId) =>
        listFactors({ platformId, customerId }).pipe(Effect.mapError(wrap("listFactors"))),
      deleteFactor: (platformId, customerId, id) =>
        deleteFactor({ platformId, customerId, id }).pipe(
          Effect.map(Option.isSome),
          Effect.mapError(wrap("deleteFactor"))
        ),
      putChallenge: (platformId, challenge) =>
        putChallenge({ platformId, challenge }).pipe(Effect.mapError(wrap("putChallenge"))),
      findChallenge: (platformId, id) => findChallenge({ platformId, id }).pipe(Effect.mapError(wrap("findChallenge"))),
      findChallengeFor: (platformId, customerId, purpose, subjectId) =>
        findChallengeFor({ platformId, customerId, purpose, subjectId }).pipe(
          Effect.mapError(wrap("findChallengeFor"))
        ),
      takeChallenge: (platformId, id) =>
        takeChallenge({ platformId, id }).pipe(Effect.map(Option.isSome), Effect.mapError(wrap("takeChallenge"))),
      recordChallengeFailure: (platformId, id) =>
        recordChallengeFailure({ platformId, id }).pipe(
          Effect.map(Option.getOrElse(() => 0)),
          Effect.mapError(wrap("recordChallengeFailure"))
        ),
      findGuard: (platformId, customerId) =>
        findGuard({ platformId, customerId }).pipe(Effect.mapError(wrap("findGuard"))),
      putGuard: (platformId, guard) => putGuard({ platformId, guard }).pipe(Effect.mapError(wrap("putGuard"))),
      putReset: (platformId, reset) => putReset({ platformId, reset }).pipe(Effect.mapError(wrap("putReset"))),
      findReset: (platformId, customerId, id) =>
        findReset({ platformId, customerId, id }).pipe(Effect.mapError(wrap("findReset"))),
      setTrusted: (platformId, customerId, externalAccountId, trusted) =>
        (trusted
          ? trust({ platformId, customerId, externalAccountId })
          : untrust({ platformId, externalAccountId })
        ).pipe(Effect.mapError(wrap("setTrusted"))),
      isTrusted: (platformId, externalAccountId) =>
        isTrusted({ platformId, externalAccountId }).pipe(Effect.map(Option.isSome), Effect.mapError(wrap("isTrusted")))
    })
  }
)

/** Provides `ScaRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<ScaRepo.ScaRepo, never, SqlClient.SqlClient> = Layer.effect(ScaRepo.ScaRepo, make)
