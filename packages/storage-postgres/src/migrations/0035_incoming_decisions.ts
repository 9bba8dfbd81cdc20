import { statements } from "./internal/statements.js"

/**
 * The platform decisions held incoming payments wait for (`incoming_decisions`, one per transaction, decided once by
 * a guarded update on `status`), and the delegated signing keys of embedded wallets (`delegated_keys`: at most one
 * non-revoked key per wallet and card, by a partial unique index). Both keep their record encoded in `record`, with
 * the columns that find and guard rows derived from it.
 */
export default statements(
  (sql) => sql`CREATE TABLE incoming_decisions (
      transaction_id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      deadline_at timestamptz NOT NULL,
      record jsonb NOT NULL
    )`,
  (sql) => sql`CREATE TABLE delegated_keys (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      account_id text COLLATE "C" NOT NULL,
      card_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX delegated_keys_account_idx ON delegated_keys (platform_id, account_id, created_at, id)`,
  (sql) => sql`CREATE UNIQUE INDEX delegated_keys_live_idx ON delegated_keys (platform_id, account_id, card_id)
      WHERE status <> 'REVOKED'`
)
