import { statements } from "./internal/statements.js"

/**
 * `verifications`: one row per verification submission, written once, its record encoded in `record`. The columns
 * `customer_id` and `verification_status` exist to filter the list; both page indexes serve a newest-first keyset
 * page by `(created_at, id)`, of the platform or of one customer.
 */
export default statements(
  (sql) => sql`CREATE TABLE verifications (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      verification_status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX verifications_page_idx ON verifications (platform_id, created_at DESC, id DESC)`,
  (sql) =>
    sql`CREATE INDEX verifications_customer_page_idx
      ON verifications (platform_id, customer_id, created_at DESC, id DESC)`
)
