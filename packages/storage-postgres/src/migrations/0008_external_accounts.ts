import { defaultKey, identifierKey } from "../accounts/internal/externalAccounts.js"
import { statements } from "./internal/statements.js"

/**
 * External accounts are soft-deleted: the unique and page indexes cover live rows only. `owner_key` is the customer
 * id or 'platform'. Counts live in `external_account_counts` (docs/storage.md): one row per customer and currency,
 * and `count_slot`-spread rows per owner kind ('customers', 'platform') and currency.
 */
export default statements(
  (sql) => sql`CREATE TABLE external_accounts (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      owner text NOT NULL CHECK (owner IN ('customers', 'platform')),
      owner_key text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C",
      account_type text NOT NULL,
      identifier text NOT NULL,
      currency text NOT NULL,
      status text NOT NULL,
      default_uma_deposit_account boolean NOT NULL,
      count_slot smallint NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      deleted_at timestamptz,
      CHECK ((owner = 'customers') = (customer_id IS NOT NULL))
    )`,
  (sql) => sql`CREATE UNIQUE INDEX ${sql(identifierKey)}
      ON external_accounts (platform_id, owner_key, account_type, identifier) WHERE deleted_at IS NULL`,
  (sql) => sql`CREATE UNIQUE INDEX ${sql(defaultKey)}
      ON external_accounts (platform_id, owner_key) WHERE default_uma_deposit_account AND deleted_at IS NULL`,
  (sql) => sql`CREATE INDEX external_accounts_page_idx
      ON external_accounts (platform_id, owner, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  (sql) => sql`CREATE INDEX external_accounts_currency_idx
      ON external_accounts (platform_id, owner, currency, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  (sql) => sql`CREATE INDEX external_accounts_customer_idx
      ON external_accounts (platform_id, customer_id, created_at DESC, id DESC)
      WHERE deleted_at IS NULL AND customer_id IS NOT NULL`,
  (sql) => sql`CREATE TABLE external_account_counts (
      platform_id text NOT NULL,
      scope text COLLATE "C" NOT NULL,
      currency text NOT NULL,
      slot smallint NOT NULL,
      n bigint NOT NULL CHECK (n >= 0),
      PRIMARY KEY (platform_id, scope, currency, slot)
    )`
)
