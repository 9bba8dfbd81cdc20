import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { type Context, Clock, Effect, Layer, Schema } from "effect"
import { Errors, RateLimit, RateLimiter } from "@payrail/core"

const Outcome = Schema.Struct({ admitted: Schema.Boolean, retry_after_ms: Schema.Number })

/** Every how many events a limiter also deletes the keys at rest, so the table holds only live keys. */
export const pruneEvery = 100

/**
 * `RateLimiter` on the `rate_limits` table (migration 0012): each event is one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` that applies the GCRA step of `RateLimit.step` under the row's lock,
 * so concurrent events on one key, from any number of servers, are counted exactly. Time is the caller's `Clock`
 * (servers sharing a database should keep their clocks in step). Every `pruneEvery` events of this layer, one more
 * statement deletes the rows at rest. Run it outside a unit of work: inside one, a rollback gives the events back.
 */
export const make: Effect.Effect<Context.Tag.Service<RateLimiter.RateLimiter>, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    let events = 0

    const step = SqlSchema.single({
      Request: Schema.Struct({
        key: Schema.String,
        now: Schema.Number,
        interval: Schema.Number,
        tolerance: Schema.Number
      }),
      Result: Outcome,
      // A refused event leaves `tat_ms` as it was; `admitted` records which branch ran, since RETURNING sees only
      // the new row.
      execute: ({ interval, key, now, tolerance }) => sql`
        INSERT INTO rate_limits AS r (key, tat_ms, admitted)
        VALUES (${key}, ${now + interval}::bigint, true)
        ON CONFLICT (key) DO UPDATE SET
          admitted = GREATEST(r.tat_ms, ${now}::bigint) - ${now}::bigint <= ${tolerance}::bigint,
          tat_ms = CASE
            WHEN GREATEST(r.tat_ms, ${now}::bigint) - ${now}::bigint <= ${tolerance}::bigint
            THEN GREATEST(r.tat_ms, ${now}::bigint) + ${interval}::bigint
            ELSE r.tat_ms
          END
        RETURNING admitted, (tat_ms - ${now}::bigint - ${tolerance}::bigint)::float8 AS retry_after_ms`
    })

    const prune = (now: number) => sql`DELETE FROM rate_limits WHERE tat_ms < ${now}::bigint`

    return RateLimiter.RateLimiter.of({
      consume: (key, limit) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const outcome = yield* step({
            key,
            now,
            interval: limit.intervalMillis,
            tolerance: RateLimit.toleranceMillis(limit)
          })
          events = (events + 1) % pruneEvery
          if (events === 0) yield* prune(now)
          return outcome.admitted
            ? { admitted: true as const }
            : { admitted: false as const, retryAfterMillis: outcome.retry_after_ms }
        }).pipe(Effect.mapError(Errors.StoreFailure.wrap("rate_limits.consume")))
    })
  }
)

/** Provides `RateLimiter` on the ambient `SqlClient`; the schema must be migrated (see `Migrations`). */
export const layer: Layer.Layer<RateLimiter.RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
  RateLimiter.RateLimiter,
  make
)
