import { statements } from "./internal/statements.js"

/**
 * `uma_lookups`: receiver lookups (`GET /receiver/...`), each record encoded in `record`, written once and read by
 * id. (Customers are found by UMA address through `customers_uma_address_idx`, migration 0021.)
 */
export default statements(
  (sql) => sql`CREATE TABLE uma_lookups (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )`
)
