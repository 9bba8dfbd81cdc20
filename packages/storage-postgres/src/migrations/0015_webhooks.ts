import { statements } from "./internal/statements.js"

/**
 * `webhook_secrets`: each platform's signing secrets (in clear: signing needs the key), newest first by `seq`; a
 * rotated-out one has `expires_at`. `webhook_deliveries`: the delivery log, one row per (event, endpoint URL), the
 * URL compared through its md5 so that a long URL fits the index; the record is kept encoded in `record`, its status
 * and attempt count also in columns for filters and the compare-and-set of `update`.
 */
export default statements(
  (sql) => sql`CREATE TABLE webhook_secrets (
      seq bigserial PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      secret text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX webhook_secrets_platform_idx ON webhook_secrets (platform_id, seq DESC)`,
  (sql) => sql`CREATE TABLE webhook_deliveries (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      event_id text NOT NULL,
      url text NOT NULL,
      event_type text NOT NULL,
      status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
      attempts integer NOT NULL CHECK (attempts >= 0),
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE UNIQUE INDEX webhook_deliveries_event_url_key ON webhook_deliveries (event_id, md5(url))`,
  (sql) => sql`CREATE INDEX webhook_deliveries_page_idx
      ON webhook_deliveries (platform_id, created_at DESC, id DESC)`,
  (sql) => sql`CREATE INDEX webhook_deliveries_status_idx
      ON webhook_deliveries (platform_id, status, created_at DESC, id DESC)`
)
