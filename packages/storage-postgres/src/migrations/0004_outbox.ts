import { statements } from "./internal/statements.js"

/**
 * `outbox`: domain events in append order (`seq`), undelivered ones indexed.
 */
export default statements(
  (sql) => sql`CREATE TABLE outbox (
      seq bigserial PRIMARY KEY,
      id text NOT NULL CONSTRAINT outbox_id_key UNIQUE,
      platform_id text NOT NULL,
      type text NOT NULL,
      timestamp timestamptz NOT NULL,
      data jsonb NOT NULL,
      delivered_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX outbox_pending_idx ON outbox (seq) WHERE delivered_at IS NULL`
)
