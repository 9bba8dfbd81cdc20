import { statements } from "./internal/statements.js"

/**
 * `uma_lookups`: receiver lookups (`GET /receiver/...`), each record encoded in `record`, written once and read by
 * id. `customers_uma_address_idx` finds a customer by its UMA address (`CustomerRepo.findByUmaAddress`), which an
 * address on the platform's own UMA domain resolves to.
 */
export default statements(
  (sql) => sql`CREATE TABLE uma_lookups (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX customers_uma_address_idx ON customers (platform_id, (record->>'umaAddress'))`
)
