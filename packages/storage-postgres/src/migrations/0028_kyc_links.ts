import { statements } from "./internal/statements.js"

/**
 * `kyc_links`: hosted verification links, found by the SHA-256 of their secret (the secret itself is never stored).
 * `spent_at` is set once, by the guarded update that spends the link.
 */
export default statements(
  (sql) => sql`CREATE TABLE kyc_links (
      secret_hash text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      redirect_uri text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      spent_at timestamptz
    )`
)
