import { statements } from "./internal/statements.js"

/**
 * `idempotency_keys`: one row per `Idempotency-Key` of a platform (`PgIdempotencyKeys`). A row is inserted when a
 * request claims its key and completed (`status`, `content_type`, `body`) in the same unit of work, so a committed
 * row always holds its response; `fingerprint` is the hex SHA-256 of the request. Rows older than the retention are
 * deleted by the purge (`created_at` index).
 */
export default statements(
  (sql) => sql`CREATE TABLE idempotency_keys (
      platform_id text COLLATE "C" NOT NULL REFERENCES platforms (id),
      key text COLLATE "C" NOT NULL,
      fingerprint text NOT NULL,
      created_at timestamptz NOT NULL,
      status integer,
      content_type text,
      body text,
      PRIMARY KEY (platform_id, key)
    )`,
  (sql) => sql`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`
)
