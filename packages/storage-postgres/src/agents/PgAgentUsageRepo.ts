import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Agent, AgentUsageRepo, Errors, Platform } from "@payrail/core"
import { type Context, Effect, Layer, Option, Schema } from "effect"

const Counters = Schema.Struct({
  day: Schema.String,
  dailySpendMinor: Schema.BigInt,
  dailyCount: Schema.Int,
  month: Schema.String,
  monthlySpendMinor: Schema.BigInt
})

const returning = `day, daily_spend::text AS "dailySpendMinor", daily_count AS "dailyCount", month,
  monthly_spend::text AS "monthlySpendMinor"`

// An optional limit bound as decimal text (or NULL) for a `::bigint` cast.
const limitText = (limit: bigint | number | undefined): string | null => (limit === undefined ? null : String(limit))

/**
 * `AgentUsageRepo` on the `agent_usage` table (migration `0030_agents`), one row per agent.
 *
 * Guarantees: `charge` is one `INSERT … ON CONFLICT DO UPDATE … WHERE <every limit holds after the charge>`. The
 * conflicting row is locked and the guard evaluated on its latest version, so concurrent charges apply one after
 * another and never pass a limit; a refused charge returns no row and changes nothing. Counters of another day
 * (month) than the charge's count from zero inside the same statement, so a rollover needs no separate reset.
 * Every statement is scoped by `platform_id`: another platform reads zero, and its charges are refused.
 */
export const make: Effect.Effect<
  Context.Tag.Service<AgentUsageRepo.AgentUsageRepo>,
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const read = SqlSchema.findOne({
    Request: Schema.Struct({ platformId: Platform.PlatformId, agentId: Agent.AgentId }),
    Result: Counters,
    execute: ({ agentId, platformId }) =>
      sql`SELECT ${sql.unsafe(returning)} FROM agent_usage WHERE platform_id = ${platformId} AND agent_id = ${agentId}`
  })

  const charge = (platformId: string, agentId: string, request: AgentUsageRepo.UsageCharge) => {
    const amount = String(request.amountMinor)
    const daily = limitText(request.dailyLimitMinor)
    const count = limitText(request.dailyCountLimit)
    const monthly = limitText(request.monthlyLimitMinor)
    const dailyBefore = sql`CASE WHEN u.day = ${request.day} THEN u.daily_spend ELSE 0 END`
    const countBefore = sql`CASE WHEN u.day = ${request.day} THEN u.daily_count ELSE 0 END`
    const monthlyBefore = sql`CASE WHEN u.month = ${request.month} THEN u.monthly_spend ELSE 0 END`
    return SqlSchema.findOne({
      Request: Schema.Void,
      Result: Counters,
      execute: () =>
        sql`INSERT INTO agent_usage AS u (agent_id, platform_id, day, daily_spend, daily_count, month, monthly_spend)
            SELECT ${agentId}, ${platformId}, ${request.day}, ${amount}::bigint, 1, ${request.month}, ${amount}::bigint
            WHERE (${daily}::bigint IS NULL OR ${amount}::bigint <= ${daily}::bigint)
              AND (${count}::bigint IS NULL OR 1 <= ${count}::bigint)
              AND (${monthly}::bigint IS NULL OR ${amount}::bigint <= ${monthly}::bigint)
            ON CONFLICT (agent_id) DO UPDATE SET
              day = EXCLUDED.day,
              daily_spend = ${dailyBefore} + ${amount}::bigint,
              daily_count = ${countBefore} + 1,
              month = EXCLUDED.month,
              monthly_spend = ${monthlyBefore} + ${amount}::bigint
            WHERE u.platform_id = ${platformId}
              AND (${daily}::bigint IS NULL OR ${dailyBefore} + ${amount}::bigint <= ${daily}::bigint)
              AND (${count}::bigint IS NULL OR ${countBefore} + 1 <= ${count}::bigint)
              AND (${monthly}::bigint IS NULL OR ${monthlyBefore} + ${amount}::bigint <= ${monthly}::bigint)
            RETURNING ${sql.unsafe(returning)}`
    })(undefined)
  }

  const rescale = SqlSchema.void({
    Request: Schema.Struct({
      platformId: Platform.PlatformId,
      agentId: Agent.AgentId,
      numerator: Schema.BigInt,
      denominator: Schema.BigInt
    }),
    execute: ({ agentId, denominator, numerator, platformId }) =>
      sql`UPDATE agent_usage SET
            daily_spend = div(daily_spend::numeric * ${numerator}::numeric, ${denominator}::numeric)::bigint,
            monthly_spend = div(monthly_spend::numeric * ${numerator}::numeric, ${denominator}::numeric)::bigint
          WHERE platform_id = ${platformId} AND agent_id = ${agentId}`
  })

  const fail = Errors.StoreFailure.wrap
  return AgentUsageRepo.AgentUsageRepo.of({
    current: (platformId, agentId, today) =>
      read({ platformId, agentId }).pipe(
        Effect.map(
          Option.match({
            onNone: () => ({ ...today, dailySpendMinor: 0n, dailyCount: 0, monthlySpendMinor: 0n }),
            onSome: (counters) => ({
              day: today.day,
              dailySpendMinor: counters.day === today.day ? counters.dailySpendMinor : 0n,
              dailyCount: counters.day === today.day ? counters.dailyCount : 0,
              month: today.month,
              monthlySpendMinor: counters.month === today.month ? counters.monthlySpendMinor : 0n
            })
          })
        ),
        Effect.mapError(fail("agentUsage.current"))
      ),
    charge: (platformId, agentId, request) =>
      charge(platformId, agentId, request).pipe(
        Effect.map(Option.getOrUndefined),
        Effect.mapError(fail("agentUsage.charge"))
      ),
    rescale: (platformId, agentId, rate) =>
      rescale({ platformId, agentId, ...rate }).pipe(Effect.mapError(fail("agentUsage.rescale")))
  })
})

/** Provides `AgentUsageRepo` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<AgentUsageRepo.AgentUsageRepo, never, SqlClient.SqlClient> = Layer.effect(
  AgentUsageRepo.AgentUsageRepo,
  make
)
