import { statements } from "./internal/statements.js"

/**
 * Stablecoin issuance: provider account links (`stablecoin_provider_accounts`), registered stablecoins
 * (`stablecoins`) and their mint and burn operations (`stablecoin_operations`). Each record is kept encoded in
 * `record`, with the columns that find, filter and order rows derived from it. `credential_ref` is the provider's
 * opaque reference to a link's credentials: no API response reads it. Every list filter has an index that ends in
 * `(created_at, id)`, for keyset pages.
 */
export default statements(
  (sql) => sql`CREATE TABLE stablecoin_provider_accounts (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      provider text NOT NULL,
      status text NOT NULL,
      credential_ref text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX stablecoin_provider_accounts_page_idx
      ON stablecoin_provider_accounts (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX stablecoin_provider_accounts_status_idx
      ON stablecoin_provider_accounts (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE TABLE stablecoins (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      provider text NOT NULL,
      issuance_status text NOT NULL,
      grid_operations_status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX stablecoins_page_idx ON stablecoins (platform_id, created_at, id)`,
  (sql) => sql`CREATE TABLE stablecoin_operations (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      stablecoin_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX stablecoin_operations_coin_idx
      ON stablecoin_operations (platform_id, stablecoin_id, created_at, id)`
)
