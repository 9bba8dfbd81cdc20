import { statements } from "./internal/statements.js"

/**
 * A wallet's active sessions (what every signed retry reads to find the keys that may sign it) are listed from an
 * index of its sessions not revoked, instead of one of all its sessions: the read no longer grows with the sessions
 * the wallet revoked or refreshed over its life, and a revocation (whose new row version is not active) adds no
 * entry to it.
 */
export default statements(
  (sql) => sql`CREATE INDEX auth_sessions_active_idx ON auth_sessions (platform_id, account_id, created_at, id)
    WHERE revoked_at IS NULL`,
  (sql) => sql`DROP INDEX auth_sessions_account_idx`
)
