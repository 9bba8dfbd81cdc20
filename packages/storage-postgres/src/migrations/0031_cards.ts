import { statements } from "./internal/statements.js"

/**
 * Cards (`cards`), card transactions (`card_transactions`) and card reveal links (`card_reveals`). Cards and card
 * transactions keep each record encoded in `record`, with the columns that find, filter and order rows derived from
 * it, and a `version` that every update compares and bumps. `cards.issuer_secret` is what the issuer derives the
 * full card number from: no API response reads it. `card_transactions.hold_posting_id` is the ledger's pending
 * posting that reserves what is authorized and not settled. A reveal link is stored as the SHA-256 of its token.
 * Every list filter has an index that ends in `(created_at, id)`, for keyset pages in either order.
 */
export default statements(
  (sql) => sql`CREATE TABLE cards (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      funding_source text COLLATE "C",
      platform_card_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      version integer NOT NULL,
      issuer_secret text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX cards_page_idx ON cards (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX cards_customer_idx ON cards (platform_id, customer_id, created_at, id)`,
  (sql) => sql`CREATE INDEX cards_funding_idx ON cards (platform_id, funding_source, created_at, id)
      WHERE funding_source IS NOT NULL`,
  (sql) => sql`CREATE INDEX cards_platform_card_idx ON cards (platform_id, platform_card_id, created_at, id)`,
  (sql) => sql`CREATE INDEX cards_status_idx ON cards (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE TABLE card_transactions (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      card_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      platform_customer_id text COLLATE "C",
      account_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      version integer NOT NULL,
      hold_posting_id text COLLATE "C",
      hold_amount bigint NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX card_transactions_page_idx ON card_transactions (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX card_transactions_card_idx ON card_transactions (platform_id, card_id, created_at, id)`,
  (sql) => sql`CREATE INDEX card_transactions_customer_idx
      ON card_transactions (platform_id, customer_id, created_at, id)`,
  (sql) => sql`CREATE INDEX card_transactions_platform_customer_idx
      ON card_transactions (platform_id, platform_customer_id, created_at, id) WHERE platform_customer_id IS NOT NULL`,
  (sql) => sql`CREATE INDEX card_transactions_account_idx
      ON card_transactions (platform_id, account_id, created_at, id)`,
  (sql) => sql`CREATE INDEX card_transactions_status_idx ON card_transactions (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE TABLE card_reveals (
      token_hash text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      card_id text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
)
