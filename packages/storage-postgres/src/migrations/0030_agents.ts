import { statements } from "./internal/statements.js"

/**
 * Agents (`agents`, their policy as `jsonb`; a deleted agent keeps its row with `deleted_at` and loses its token),
 * their device codes (`agent_device_codes`, found by the SHA-256 of the code), their usage counters (`agent_usage`,
 * one row per agent, charged by one guarded upsert) and their actions (`agent_actions`, the audit of what agents
 * did, never deleted).
 */
export default statements(
  (sql) => sql`CREATE TABLE agents (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      name text NOT NULL,
      is_paused boolean NOT NULL,
      is_connected boolean NOT NULL,
      policy jsonb NOT NULL,
      token_hash text COLLATE "C",
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX agents_page_idx ON agents (platform_id, created_at, id) WHERE deleted_at IS NULL`,
  (sql) => sql`CREATE INDEX agents_customer_idx ON agents (platform_id, customer_id, created_at, id)
      WHERE deleted_at IS NULL`,
  (sql) => sql`CREATE UNIQUE INDEX agents_token_idx ON agents (token_hash) WHERE token_hash IS NOT NULL`,
  (sql) => sql`CREATE TABLE agent_device_codes (
      code_hash text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      agent_id text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      redeemed_at timestamptz,
      invalidated_at timestamptz
    )`,
  (sql) => sql`CREATE INDEX agent_device_codes_open_idx ON agent_device_codes (agent_id)
      WHERE redeemed_at IS NULL AND invalidated_at IS NULL`,
  (sql) => sql`CREATE TABLE agent_usage (
      agent_id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      day text NOT NULL,
      daily_spend bigint NOT NULL,
      daily_count integer NOT NULL,
      month text NOT NULL,
      monthly_spend bigint NOT NULL
    )`,
  (sql) => sql`CREATE TABLE agent_actions (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      agent_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      platform_customer_id text NOT NULL,
      status text NOT NULL,
      type text NOT NULL,
      quote_id text COLLATE "C",
      transfer_details jsonb,
      transaction_id text COLLATE "C",
      executed boolean NOT NULL,
      rejection_reason text,
      failure_reason text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX agent_actions_page_idx ON agent_actions (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX agent_actions_agent_idx ON agent_actions (platform_id, agent_id, created_at, id)`,
  (sql) => sql`CREATE INDEX agent_actions_customer_idx ON agent_actions (platform_id, customer_id, created_at, id)`,
  (sql) => sql`CREATE INDEX agent_actions_status_idx ON agent_actions (platform_id, status, created_at, id)`,
  (sql) => sql`CREATE INDEX agent_actions_transaction_idx ON agent_actions (platform_id, transaction_id)
      WHERE transaction_id IS NOT NULL`
)
