import { statements } from "./internal/statements.js"

/**
 * Internal accounts and their credentials: records only, balances are the ledger's. Few per customer.
 */
export default statements(
  (sql) => sql`CREATE TABLE internal_accounts (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      customer_id text COLLATE "C",
      type text NOT NULL,
      currency text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX internal_accounts_page_idx ON internal_accounts (platform_id, created_at DESC, id DESC)`,
  (sql) => sql`CREATE INDEX internal_accounts_customer_idx
      ON internal_accounts (platform_id, customer_id, created_at DESC, id DESC) WHERE customer_id IS NOT NULL`
)
