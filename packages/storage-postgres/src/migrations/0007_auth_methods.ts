import { statements } from "./internal/statements.js"

/**
 * `auth_methods`: the credentials of embedded wallets, listed per account oldest first.
 */
export default statements(
  (sql) => sql`CREATE TABLE auth_methods (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      account_id text COLLATE "C" NOT NULL,
      type text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX auth_methods_account_idx ON auth_methods (platform_id, account_id, created_at, id)`
)
