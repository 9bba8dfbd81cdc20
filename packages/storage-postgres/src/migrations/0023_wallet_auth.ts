import { statements } from "./internal/statements.js"

/**
 * Embedded-wallet authentication (issue 11).
 *
 * `auth_methods` gains the columns its uniqueness rules need, filled from the records already stored, and one
 * unique partial index per rule, so that they hold under concurrency: one `EMAIL_OTP` and one `SMS_OTP` credential
 * per (platform, account), a passkey `credential_id` once per platform, an `OAUTH` identity (issuer, audience,
 * subject) once per (platform, account).
 *
 * New tables, each row scoped by `platform_id`, each record encoded in `record` (secrets as opaque text):
 * `auth_sessions` (listed per account oldest first, revoked per issuing credential), `signed_requests` (purged by
 * expiry), `otp_challenges` (one per credential) and `wallet_secrets` (one per wallet).
 */
export default statements(
  (sql) => sql`ALTER TABLE auth_methods
      ADD COLUMN credential_id text COLLATE "C",
      ADD COLUMN oauth_issuer text COLLATE "C",
      ADD COLUMN oauth_audience text COLLATE "C",
      ADD COLUMN oauth_subject text COLLATE "C"`,
  (sql) => sql`UPDATE auth_methods SET
      credential_id = record->>'credentialId',
      oauth_issuer = record->'oauth'->>'issuer',
      oauth_audience = record->'oauth'->>'audience',
      oauth_subject = record->'oauth'->>'subject'
    WHERE record ? 'credentialId' OR record ? 'oauth'`,
  (sql) => sql`CREATE UNIQUE INDEX auth_methods_otp_key ON auth_methods (platform_id, account_id, type)
    WHERE type IN ('EMAIL_OTP', 'SMS_OTP')`,
  (sql) => sql`CREATE UNIQUE INDEX auth_methods_passkey_key ON auth_methods (platform_id, credential_id)
    WHERE type = 'PASSKEY'`,
  (sql) => sql`CREATE UNIQUE INDEX auth_methods_oauth_key
    ON auth_methods (platform_id, account_id, oauth_issuer, oauth_audience, oauth_subject)
    WHERE type = 'OAUTH'`,
  (sql) => sql`CREATE TABLE auth_sessions (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      account_id text COLLATE "C" NOT NULL,
      auth_method_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX auth_sessions_account_idx ON auth_sessions (platform_id, account_id, created_at, id)`,
  (sql) => sql`CREATE INDEX auth_sessions_issuer_idx ON auth_sessions (platform_id, auth_method_id)
    WHERE revoked_at IS NULL`,
  (sql) => sql`CREATE TABLE signed_requests (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX signed_requests_expiry_idx ON signed_requests (expires_at)`,
  (sql) => sql`CREATE TABLE otp_challenges (
      platform_id text COLLATE "C" NOT NULL,
      auth_method_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      issued_at timestamptz NOT NULL,
      PRIMARY KEY (platform_id, auth_method_id)
    )`,
  (sql) => sql`CREATE TABLE wallet_secrets (
      platform_id text COLLATE "C" NOT NULL,
      account_id text COLLATE "C" NOT NULL,
      sealed_secret text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (platform_id, account_id)
    )`
)
