import { statements } from "./internal/statements.js"

/**
 * Strong customer authentication. Each table keeps its record encoded in `record`, with the columns that find rows
 * derived from it; every statement is scoped by `platform_id`.
 * - `sca_factors`: customers' enrolled (and pending) TOTP and passkey factors.
 * - `sca_challenges`: outstanding challenges (a digest of the code, never the code), taken once when satisfied.
 * - `sca_guards`: each customer's failed-attempt count, lock and SCA session (the lockout ladder's state).
 * - `sca_resets`: factor resets.
 * - `sca_trusted_beneficiaries`: the external accounts a customer trusts.
 */
export default statements(
  (sql) => sql`CREATE TABLE sca_factors (
      platform_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (platform_id, id)
    )`,
  (sql) => sql`CREATE INDEX sca_factors_customer_idx ON sca_factors (platform_id, customer_id, created_at, id)`,
  (sql) => sql`CREATE TABLE sca_challenges (
      platform_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      purpose text NOT NULL,
      subject_id text COLLATE "C" NOT NULL,
      seq bigserial NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (platform_id, id)
    )`,
  (sql) => sql`CREATE INDEX sca_challenges_subject_idx
      ON sca_challenges (platform_id, customer_id, purpose, subject_id, seq)`,
  (sql) => sql`CREATE TABLE sca_guards (
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (platform_id, customer_id)
    )`,
  (sql) => sql`CREATE TABLE sca_resets (
      platform_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (platform_id, id)
    )`,
  (sql) => sql`CREATE TABLE sca_trusted_beneficiaries (
      platform_id text COLLATE "C" NOT NULL,
      external_account_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (platform_id, external_account_id)
    )`
)
