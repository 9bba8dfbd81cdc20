import { statements } from "./internal/statements.js"

/**
 * `rate_limits`: the state of every key of the `RateLimiter` (`PgRateLimiter`), one row per key: its theoretical
 * arrival time in epoch milliseconds (GCRA) and whether its last event was admitted. A row whose `tat_ms` has
 * passed is at rest and may be deleted at any time. Unlogged: rate-limit state is not worth a WAL write per failed
 * login, and losing it in a crash only forgives the clients counted.
 */
export default statements(
  (sql) => sql`CREATE UNLOGGED TABLE rate_limits (
      key text COLLATE "C" PRIMARY KEY,
      tat_ms bigint NOT NULL,
      admitted boolean NOT NULL
    )`,
  (sql) => sql`CREATE INDEX rate_limits_tat_idx ON rate_limits (tat_ms)`
)
