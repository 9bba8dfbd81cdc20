import { statements } from "./internal/statements.js"

/**
 * `api_tokens`: one row per API token; `client_id` is unique across platforms.
 */
export default statements(
  (sql) => sql`CREATE TABLE api_tokens (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      client_id text NOT NULL CONSTRAINT api_tokens_client_id_key UNIQUE,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX api_tokens_platform_idx ON api_tokens (platform_id, created_at, id)`
)
