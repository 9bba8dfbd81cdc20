import { statements } from "./internal/statements.js"

/**
 * `quotes` and `transactions` (money transactions): each record encoded in `record`, with the columns that find,
 * filter and order rows, all derived from the record (a transition rewrites them with it). `transactions.posting_id`
 * is the ledger posting, which the record does not show. Every list filter has an index of its own that ends in
 * `(created_at, id)`, so a keyset page in either order starts at its cursor and reads about `limit + 1` entries,
 * at any depth and table size; the nullable keys are indexed where present. `accountIdentifier` (sender or
 * receiver) reads the sender and receiver indexes (docs/storage.md).
 */
export default statements(
  (sql) => sql`CREATE TABLE quotes (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C",
      status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX quotes_page_idx ON quotes (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX quotes_customer_idx ON quotes (platform_id, customer_id, created_at, id)
      WHERE customer_id IS NOT NULL`,
  (sql) => sql`CREATE INDEX quotes_status_idx ON quotes (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE TABLE transactions (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      platform_customer_id text COLLATE "C",
      sender_identifier text COLLATE "C",
      receiver_identifier text COLLATE "C" NOT NULL,
      status text NOT NULL,
      type text NOT NULL,
      reference text COLLATE "C",
      posting_id text COLLATE "C",
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX transactions_page_idx ON transactions (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX transactions_customer_idx ON transactions (platform_id, customer_id, created_at, id)`,
  (sql) => sql`CREATE INDEX transactions_platform_customer_idx
      ON transactions (platform_id, platform_customer_id, created_at, id) WHERE platform_customer_id IS NOT NULL`,
  (sql) => sql`CREATE INDEX transactions_sender_idx
      ON transactions (platform_id, sender_identifier, created_at, id) WHERE sender_identifier IS NOT NULL`,
  (sql) => sql`CREATE INDEX transactions_receiver_idx
      ON transactions (platform_id, receiver_identifier, created_at, id)`,
  (sql) => sql`CREATE INDEX transactions_status_idx ON transactions (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE INDEX transactions_type_idx ON transactions (platform_id, type, created_at, id)`,
  (sql) => sql`CREATE INDEX transactions_reference_idx
      ON transactions (platform_id, reference, created_at, id) WHERE reference IS NOT NULL`
)
